/**
 * Turns a picked fault rule into what the client sees: an error status with the API's envelope
 * and headers, a delay, or a connection reset before or after the request is processed.
 */
import { setTimeout as delay } from "node:timers/promises";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { EmulatorRuntime } from "./runtime";
import type { FaultRule } from "./faults";
import { REASONS, errorBody } from "./errors";

/** A gateway's own error page: 502s may come as text/html, not JSON (api-facts P7-1). */
export const BAD_GATEWAY_HTML =
  "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n";

export const MAINTENANCE_HEADER = "X-Maintenance-Mode";

/** Default `Retry-After` (seconds) of a 429 rule that names none. */
export const DEFAULT_RETRY_AFTER_SECONDS = 1;
/** Default delay of a latency rule that names none. */
export const DEFAULT_LATENCY_MS = 1000;

function pathOf(url: string): string {
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

export function pickFault(runtime: EmulatorRuntime, request: FastifyRequest): FaultRule | undefined {
  const rule = runtime.faults.pick(request.method, pathOf(request.url));
  if (rule) {
    const logged = runtime.requestLog.entryOf(request.raw);
    if (logged) logged.fault = rule.kind;
  }
  return rule;
}

/**
 * A 503 says when to come back only if its rule names a time: the rate limiter's `Retry-After`
 * (the window's reset) would make retrying clients (linodego retries 503) wait for the window.
 */
function retryAfter(reply: FastifyReply, rule: FaultRule): void {
  if (rule.retryAfterSeconds !== null) reply.header("Retry-After", String(rule.retryAfterSeconds));
  else reply.removeHeader("Retry-After");
}

/** Cuts the connection with a TCP reset, so the client sees ECONNRESET and no response. */
function resetConnection(runtime: EmulatorRuntime, request: FastifyRequest, reply: FastifyReply): void {
  const logged = runtime.requestLog.entryOf(request.raw);
  if (logged) logged.status = 0;
  reply.hijack();
  const socket = request.raw.socket;
  if (typeof socket.resetAndDestroy === "function") socket.resetAndDestroy();
  else socket.destroy();
}

/** Waits `ms` of real time; false, and the timer gone, when `signal` aborts first (a closed emulator's process can exit). */
async function waited(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await delay(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/**
 * Applies a fault before the request is processed. Returns true when the fault answered (or
 * cut) the request, so the caller must not process it.
 */
export async function applyFaultBefore(
  runtime: EmulatorRuntime,
  rule: FaultRule,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<boolean> {
  switch (rule.kind) {
    case "latency":
      if (await waited(rule.latencyMs ?? DEFAULT_LATENCY_MS, runtime.closing)) return false;
      // The emulator closed meanwhile: the client sees its connection end, as from a server that went away.
      resetConnection(runtime, request, reply);
      return true;
    case "reset-after":
      return false; // processed first; see applyFaultAfter
    case "reset":
      // Reached only once the body has been read and parsed: the request was fully received.
      resetConnection(runtime, request, reply);
      return true;
    case "429":
      reply.code(429).header("Retry-After", String(rule.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS));
      reply.send(errorBody([{ reason: REASONS.tooManyRequests }]));
      return true;
    case "500":
      reply.code(500).send(errorBody([{ reason: REASONS.internalError }]));
      return true;
    case "502":
      reply.code(502).type("text/html").send(BAD_GATEWAY_HTML);
      return true;
    case "503":
      retryAfter(reply, rule);
      reply.code(503).send(errorBody([{ reason: REASONS.serviceUnavailable }]));
      return true;
    case "503-maintenance":
      retryAfter(reply, rule);
      reply
        .code(503)
        .header(MAINTENANCE_HEADER, "true")
        .send(errorBody([{ reason: REASONS.maintenance }]));
      return true;
  }
}

/** Applies a fault after processing; true when the response must not be sent (reset-after). */
export function applyFaultAfter(runtime: EmulatorRuntime, rule: FaultRule, request: FastifyRequest, reply: FastifyReply): boolean {
  if (rule.kind !== "reset-after") return false;
  resetConnection(runtime, request, reply);
  return true;
}
