/**
 * A local emulator of the cloud's REST API v4 (in the spirit of moto/LocalStack): the real
 * status codes, envelopes, pagination and rules, state per account, an injectable clock, fault
 * injection and a control API. See `emulator/README.md`.
 */
import type { Server } from "node:http";
import type { FastifyInstance } from "fastify";
import { Emulator, type EmulatorOptions } from "./emulator";
import type { EmulatorControl } from "./control/control";
import { CONTROL_PREFIX } from "./control/routes";
import { API_PREFIX } from "./core/routes";

export { Emulator, SPEC_VERSION, type EmulatorOptions } from "./emulator";
export { STRICT_ENV } from "./core/unknown-fields";
export {
  EmulatorControl,
  type AccountCreateInput,
  type ClockInput,
  type ComputeSeedInput,
  type ComputeMigrationInput,
  type CreatedAccount,
  type CreatedToken,
  type FaultRuleInput,
  type NodeBalancerSeedInput,
  type ResetInput,
  type TokenCreateInput,
} from "./control/control";
export { CONTROL_PREFIX } from "./control/routes";
export { API_PREFIX, describeRoutes, type RouteDescription, type RouteSpec } from "./core/routes";
export { REASONS, FILTER_FIELD, ApiFailure } from "./core/errors";
export { BAD_GATEWAY_HTML, MAINTENANCE_HEADER, DEFAULT_RETRY_AFTER_SECONDS } from "./core/fault-responder";
export { FAULT_KINDS, type FaultKind, type FaultRuleStatus } from "./core/faults";
export { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, PAGE_SIZE_MIN } from "./core/pagination";
export { VPCS_PER_REGION, SUBNETS_PER_VPC } from "./services/vpcs/rules";
export { CAPTURE_DURATION_MS, UPLOAD_PROCESSING_MS, UPLOAD_WINDOW_MS, UPLOAD_PREFIX } from "./services/images/store";
export { formatTimestamp, type ClockSnapshot } from "./core/clock";
export { DEFAULT_REQUEST_LOG_SIZE, type RequestLogEntry } from "./core/request-log";
export type { EmulatorState } from "./core/state";
export type { StoredCompute, StoredCompute as ComputeRecord } from "./services/computes/store";
export type { StoredNodeBalancer, StoredNodeBalancer as NodeBalancerRecord } from "./services/nodebalancers/store";

export interface RunningEmulator {
  /** Base URL of the API, e.g. `http://127.0.0.1:40123/v4`. */
  url: string;
  /** Base URL of the control API, e.g. `http://127.0.0.1:40123/__emulator`. */
  controlUrl: string;
  /** The primary account's unrestricted personal token. */
  token: string;
  /** The control API's operations, in-process. */
  control: EmulatorControl;
  /** The emulator itself (state, clock, faults), for advanced in-process use. */
  emulator: Emulator;
  /** The listening server (to `unref` it, or watch its connections). */
  server: Server;
  /** Stops listening and releases the clock's timer. */
  close(): Promise<void>;
}

/** The fastify app of an emulator, not listening yet (use `app.inject`, or `app.listen`). */
export type EmulatorApp = FastifyInstance & { emulator: Emulator };

export function buildEmulator(options: EmulatorOptions = {}): EmulatorApp {
  const emulator = new Emulator(options);
  const app = emulator.buildApp();
  return Object.assign(app, { emulator });
}

function hostForUrl(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

/** Starts an emulator listening on `host:port` (default 127.0.0.1, a random free port). */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const app = buildEmulator(options);
  const host = options.host ?? "127.0.0.1";
  await app.listen({ host, port: options.port ?? 0 });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : (options.port ?? 0);
  const origin = `http://${hostForUrl(host)}:${port}`;
  return {
    url: `${origin}${API_PREFIX}`,
    controlUrl: `${origin}${CONTROL_PREFIX}`,
    token: app.emulator.token,
    control: app.emulator.control,
    emulator: app.emulator,
    server: app.server,
    close: async () => {
      await app.close();
    },
  };
}
