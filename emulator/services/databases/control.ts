/**
 * Control operations for databases: arm the switch that makes the next provisionings end
 * `failed`, and simulate an internal failure (`failed`, `degraded`) or a recovery (`active`) of
 * one database, with the platform's events (`database_failed`, `database_degraded`). In-process as
 * `control.databases.*`; over HTTP under `/__emulator/databases`.
 */
import { z } from "zod";
import { notFound } from "../../core/errors";
import { type ControlContext, parseInput, serviceControl } from "../../core/service";
import { closeEvents } from "../events/operations";
import { DATABASES, PROVISIONING_FAILURES, assignedHosts } from "./store";
import { renderDatabase } from "./render";
import { databaseEvent } from "./operations";

export const FailProvisioningRequest = z.strictObject({
  account: z.string().min(1).optional(),
  /** How many of the next provisionings end `failed` (default 1; 0 disarms). */
  count: z.number().int().min(0).optional(),
});

export const DatabaseStatusRequest = z.strictObject({
  status: z.enum(["failed", "degraded", "active"]),
});

export class DatabasesControl {
  constructor(private readonly control: ControlContext) {}

  /** The next `count` databases created in the account end their provisioning `failed`. */
  failNextProvisioning(input: z.input<typeof FailProvisioningRequest> = {}): { account: string; remaining: number } {
    const request = parseInput(FailProvisioningRequest, input);
    const account = this.control.account(request.account);
    PROVISIONING_FAILURES.set(account, request.count ?? 1);
    this.control.runtime.persist();
    return { account: account.id, remaining: PROVISIONING_FAILURES.of(account) };
  }

  /**
   * An internal failure (`failed`, `degraded`) or a recovery (`active`) of one database, whichever
   * account owns it. A job in progress is cut short: its events end `failed`.
   */
  setStatus(id: number, input: z.input<typeof DatabaseStatusRequest>) {
    const { status } = parseInput(DatabaseStatusRequest, input);
    const runtime = this.control.runtime;
    for (const account of Object.values(runtime.state.accounts)) {
      const db = DATABASES.of(account).find((d) => d.id === id);
      if (!db) continue;
      if (db.pending) closeEvents(account, db.pending.events, "failed", runtime.clock.nowMs());
      db.pending = null;
      db.status = status;
      db.updated = runtime.clock.timestamp();
      if (status === "active" && db.hosts.primary === null) db.hosts = assignedHosts(db);
      if (status !== "active") databaseEvent({ runtime, account, username: null }, `database_${status}`, db);
      runtime.persist();
      return renderDatabase(db);
    }
    throw notFound();
  }
}

export const databasesControl = serviceControl({
  api: (control) => ({ databases: new DatabasesControl(control) }),
  routes: ({ databases }) => [
    { method: "POST", path: "/databases/fail-next-provisioning", handler: (r) => databases.failNextProvisioning(r.body()) },
    { method: "POST", path: "/databases/:databaseId/status", handler: (r) => databases.setStatus(r.id("databaseId"), r.body()) },
  ],
});
