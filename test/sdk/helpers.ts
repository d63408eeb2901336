/**
 * Test harness for the sdk: a client wired to an undici MockAgent (no network), zero-delay sleep,
 * a recorder of retries, and the call history to assert what was (or was not) sent.
 */
import { MockAgent, type MockPool } from "undici";
import { ComputeClient } from "../../sdk/client";
import type { ClientOptions, RetryEvent } from "../../sdk/core/http";

export const ORIGIN = "http://api.test";
export const BASE_URL = `${ORIGIN}/v4`;
export const TOKEN = "tok-7f3a9c2e5b1d4f60-secret";

export interface Harness {
  agent: MockAgent;
  pool: MockPool;
  client: ComputeClient;
  retries: RetryEvent[];
  sleeps: number[];
  /** Calls the MockAgent received, in order. */
  calls: () => Array<{
    method: string;
    path: string;
    searchParams: Record<string, string>;
    headers: Record<string, string>;
    body: unknown;
  }>;
}

export function harness(options: Partial<ClientOptions> = {}): Harness {
  const agent = new MockAgent({ enableCallHistory: true });
  agent.disableNetConnect();
  const retries: RetryEvent[] = [];
  const sleeps: number[] = [];
  const client = new ComputeClient({
    baseUrl: BASE_URL,
    token: TOKEN,
    dispatcher: agent,
    sleep: async (ms) => void sleeps.push(ms),
    onRetry: (event) => void retries.push(event),
    ...options,
  });
  const calls = () =>
    (agent.getCallHistory()?.calls() ?? []).map((c) => ({
      method: c.method,
      path: c.path,
      searchParams: c.searchParams,
      headers: Object.fromEntries(Object.entries(c.headers as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v])),
      body: c.body,
    }));
  return { agent, pool: agent.get(ORIGIN), client, retries, sleeps, calls };
}

export const JSON_HEADERS = { headers: { "content-type": "application/json" } };

/** A connection-level error as Node or undici raise it. */
export function netError(code: string, message = code): Error {
  return Object.assign(new Error(message), { code });
}

/** Minimal valid records, for mocks. */
export const sample = {
  region: (id = "us-east") => ({
    id,
    label: "Newark, NJ",
    country: "us",
    capabilities: ["VPCs"],
    status: "ok",
    resolvers: { ipv4: "192.0.2.1,192.0.2.2", ipv6: "2001:db8::1" },
  }),
  vpc: (id = 1) => ({
    id,
    label: `vpc-${id}`,
    description: "",
    region: "us-east",
    subnets: [],
    created: "2018-01-02T03:04:05",
    updated: null,
  }),
  subnet: (id = 7) => ({ id, label: `sn-${id}`, ipv4: "10.0.0.0/24", computes: [], created: "2018-01-02T03:04:05", updated: null }),
};

export function page<T>(data: T[], pageNo = 1, pages = 1, results = data.length) {
  return { data, page: pageNo, pages, results };
}

/** The recorded fixtures: one loader for every test (test/support/fixtures.ts). */
export { FIXTURES, load as loadFixture, type Fixture } from "../support/fixtures";
import { load as loadFixture, type Fixture } from "../support/fixtures";

/**
 * Serves a recorded exchange: the MockAgent answers the fixture's method and path (query ignored)
 * with the recorded status and body. Returns the fixture for assertions.
 */
export function serveFixture(h: Harness, name: string, pathname?: string): Fixture {
  const f = loadFixture(name);
  const expected = `/v4${pathname ?? f.path.split("?")[0]}`;
  h.pool.intercept({ path: (p) => p.split("?")[0] === expected, method: f.method }).reply(f.status, f.response as object, JSON_HEADERS);
  return f;
}
