/**
 * The control API under `/__emulator`: no token, but loopback callers only (the emulator is a
 * local test tool; anything else is refused with 403). Each route is a thin call into
 * `EmulatorControl`, which the in-process `control` object exposes too.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { EmulatorControl } from "./control";
import { ApiFailure, REASONS } from "../core/errors";
import { parseIdParam } from "../core/routes";

export const CONTROL_PREFIX = "/__emulator";

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");
}

type Params = Record<string, string>;
const params = (request: FastifyRequest) => request.params as Params;
/** The JSON body, handed on unchecked: every control method validates its own input. */
const body = <T>(request: FastifyRequest) => (request.body ?? {}) as T;

export function registerControlRoutes(app: FastifyInstance, control: EmulatorControl): void {
  app.register(
    async (scope) => {
      scope.addHook("onRequest", async (request) => {
        if (!isLoopback(request.socket.remoteAddress)) throw new ApiFailure(403, REASONS.unauthorized);
      });
      scope.post("/reset", async (request) => (control.reset(body(request)), {}));
      scope.post("/accounts", async (request) => control.createAccount(body(request)));
      scope.post("/tokens", async (request) => control.createToken(body(request)));
      scope.post("/seed/computes", async (request) => control.seedCompute(body(request)));
      scope.post("/seed/nodebalancers", async (request) => control.seedNodeBalancer(body(request)));
      scope.post("/seed/computes/:computeId/migration", async (request) => {
        control.setComputeMigration(parseIdParam(params(request)["computeId"]!), body(request));
        return {};
      });
      scope.delete("/seed/computes/:computeId/configs/:configId/interfaces/:interfaceId", async (request) => {
        const p = params(request);
        control.deleteInterface(parseIdParam(p["computeId"]!), parseIdParam(p["configId"]!), parseIdParam(p["interfaceId"]!));
        return {};
      });
      scope.get("/faults", async () => control.listFaults());
      scope.post("/faults", async (request) => control.addFault(body(request)));
      scope.delete("/faults", async () => (control.clearFaults(), {}));
      scope.delete("/faults/:faultId", async (request) => (control.removeFault(params(request)["faultId"]!), {}));
      scope.get("/clock", async () => control.getClock());
      scope.post("/clock", async (request) => control.setClock(body(request)));
      scope.get("/requests", async () => control.listRequests());
      scope.delete("/requests", async () => (control.clearRequests(), {}));
      scope.get("/state", async () => control.dumpState());
      scope.get("/routes", async () => control.routes());
      scope.post("/databases/fail-next-provisioning", async (request) => control.databases.failNextProvisioning(body(request)));
      scope.post("/databases/:databaseId/status", async (request) => control.databases.setStatus(parseIdParam(params(request)["databaseId"]!), body(request)));
      scope.post("/seed/tickets", async (request) => control.support.seedTicket(body(request)));
      scope.post("/seed/tickets/:ticketId/replies", async (request) => control.support.staffReply(parseIdParam(params(request)["ticketId"]!), body(request)));
      scope.get("/rate-limits", async () => control.getRateLimits());
      scope.post("/rate-limits", async (request) => control.setRateLimits(body(request)));
      scope.post("/account-settings", async (request) => control.support.setManaged(body(request)));
    },
    { prefix: CONTROL_PREFIX },
  );
}
