/**
 * `/v4beta` is served like `/v4` (the OpenAPI description of 4.174 lists both as servers of the
 * same resources): the same routes, state, auth, headers and errors, so a client on either base
 * works unchanged, and both see the same objects.
 */
import { request } from "undici";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { ComputeClient } from "../../../sdk/client";
import { AuthenticationError } from "../../../sdk/core/errors";

let emulator: RunningEmulator;
let v4: ComputeClient;
let beta: ComputeClient;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  v4 = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  beta = new ComputeClient({ baseUrl: `${emulator.url}beta`, token: emulator.token });
});
afterAll(async () => {
  await v4.close();
  await beta.close();
  await emulator.close();
});

test("a client on /v4beta reads and writes the same state as one on /v4", async () => {
  expect(`${emulator.url}beta`).toMatch(/\/v4beta$/);
  const made = await beta.vpcs.create({ label: "from-beta", region: "us-iad" });
  expect(await v4.vpcs.get(made.id)).toEqual(made);
  const other = await v4.vpcs.create({ label: "from-v4", region: "us-iad" });
  expect((await beta.vpcs.listAll()).map((v) => v.label).sort()).toEqual(["from-beta", "from-v4"]);
  await beta.vpcs.delete(other.id);
  expect((await v4.vpcs.listAll()).map((v) => v.label)).toEqual(["from-beta"]);
  expect(emulator.control.listRequests().some((r) => r.method === "POST" && r.path === "/v4/vpcs")).toBe(true);
});

test("the same auth, headers and errors on both bases", async () => {
  const get = (base: string, path: string, token?: string) =>
    request(`${base}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const [a, b] = await Promise.all([get(emulator.url, "/regions", emulator.token), get(`${emulator.url}beta`, "/regions", emulator.token)]);
  expect(b.statusCode).toBe(200);
  expect(await b.body.json()).toEqual(await a.body.json());
  expect(b.headers["x-spec-version"]).toBe(a.headers["x-spec-version"]);
  const missing = await get(`${emulator.url}beta`, "/vpcs/999999", emulator.token);
  expect(missing.statusCode).toBe(404);
  await missing.body.dump();
  const scoped = new ComputeClient({
    baseUrl: `${emulator.url}beta`,
    token: emulator.control.createToken({ scopes: ["domains:read_only"] }).token,
  });
  try {
    await expect(scoped.vpcs.create({ label: "no-scope", region: "us-iad" })).rejects.toBeInstanceOf(AuthenticationError);
  } finally {
    await scoped.close();
  }
  const other = await get(emulator.url.replace(/\/v4$/, "/v4betamax"), "/regions", emulator.token);
  expect(other.statusCode).toBe(404); // only the beta base itself, not any path that starts like it
  await other.body.dump();
});
