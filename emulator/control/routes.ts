/**
 * The control API under `/__emulator`: no token, but loopback callers only (the emulator is a
 * local test tool; anything else is refused with 403). Each route is a thin call into
 * `EmulatorControl`, which the in-process `control` object exposes too: the core's routes below,
 * then the services' (`EmulatorControl.serviceRoutes`, from their modules).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { EmulatorControl } from "./control";
import { ApiFailure, REASONS } from "../core/errors";
import { parseIdParam } from "../core/routes";
import type { ControlRequest, ControlRoute } from "../core/service";

export const CONTROL_PREFIX = "/__emulator";

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");
}

/** The core's control routes; a handler's answer is the body (`{}` for operations that answer nothing). */
function coreRoutes(control: EmulatorControl): ControlRoute[] {
  return [
    { method: "POST", path: "/reset", handler: (r) => (control.reset(r.body()), {}) },
    { method: "POST", path: "/accounts", handler: (r) => control.createAccount(r.body()) },
    { method: "POST", path: "/tokens", handler: (r) => control.createToken(r.body()) },
    { method: "GET", path: "/faults", handler: () => control.listFaults() },
    { method: "POST", path: "/faults", handler: (r) => control.addFault(r.body()) },
    { method: "DELETE", path: "/faults", handler: () => (control.clearFaults(), {}) },
    { method: "DELETE", path: "/faults/:faultId", handler: (r) => (control.removeFault(r.param("faultId")), {}) },
    { method: "GET", path: "/clock", handler: () => control.getClock() },
    { method: "POST", path: "/clock", handler: (r) => control.setClock(r.body()) },
    { method: "GET", path: "/requests", handler: () => control.listRequests() },
    { method: "DELETE", path: "/requests", handler: () => (control.clearRequests(), {}) },
    { method: "GET", path: "/memory", handler: () => control.memory() },
    { method: "GET", path: "/state", handler: () => control.dumpState() },
    { method: "GET", path: "/routes", handler: () => control.routes() },
    { method: "GET", path: "/rate-limits", handler: () => control.getRateLimits() },
    { method: "POST", path: "/rate-limits", handler: (r) => control.setRateLimits(r.body()) },
  ];
}

function controlRequest(request: FastifyRequest): ControlRequest {
  const params = request.params as Record<string, string>;
  return {
    body: <T>() => (request.body ?? {}) as T,
    param: (name) => params[name]!,
    id: (name) => parseIdParam(params[name]!),
  };
}

export function registerControlRoutes(app: FastifyInstance, control: EmulatorControl): void {
  app.register(
    async (scope) => {
      scope.addHook("onRequest", async (request) => {
        if (!isLoopback(request.socket.remoteAddress)) throw new ApiFailure(403, REASONS.unauthorized);
      });
      for (const route of [...coreRoutes(control), ...control.serviceRoutes]) {
        scope.route({ method: route.method, url: route.path, handler: async (request) => route.handler(controlRequest(request)) });
      }
    },
    { prefix: CONTROL_PREFIX },
  );
}
