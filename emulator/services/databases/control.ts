/**
 * Control operations for databases: arm the switch that makes the next provisionings end
 * `failed`, and simulate an internal failure (`failed`, `degraded`) or a recovery (`active`) of
 * one database, with the platform's events (`database_failed`, `database_degraded`).
 */
import { z } from "zod";
import { issuesToErrors } from "../../../sdk/core/schema";
import { ApiFailure, notFound } from "../../core/errors";
import type { EmulatorRuntime } from "../../core/runtime";
import type { AccountState } from "../../core/state";
import { closeEvents } from "../events/operations";
import { type StoredDatabase, assignedHosts } from "./store";
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

function parse<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const parsed = schema.safeParse(input ?? {});
  if (!parsed.success) throw new ApiFailure(400, issuesToErrors(parsed.error));
  return parsed.data;
}

export class DatabasesControl {
  constructor(
    private readonly runtime: EmulatorRuntime,
    private readonly accountOf: (id: string | undefined) => AccountState,
  ) {}

  /** The next `count` databases created in the account end their provisioning `failed`. */
  failNextProvisioning(input: z.input<typeof FailProvisioningRequest> = {}): { account: string; remaining: number } {
    const request = parse(FailProvisioningRequest, input);
    const account = this.accountOf(request.account);
    account.databaseProvisioningFailures = request.count ?? 1;
    this.runtime.persist();
    return { account: account.id, remaining: account.databaseProvisioningFailures };
  }

  /**
   * An internal failure (`failed`, `degraded`) or a recovery (`active`) of one database, whichever
   * account owns it. A job in progress is cut short: its events end `failed`.
   */
  setStatus(id: number, input: z.input<typeof DatabaseStatusRequest>) {
    const { status } = parse(DatabaseStatusRequest, input);
    for (const account of Object.values(this.runtime.state.accounts)) {
      const db: StoredDatabase | undefined = account.databases.find((d) => d.id === id);
      if (!db) continue;
      if (db.pending) closeEvents(account, db.pending.events, "failed", this.runtime.clock.nowMs());
      db.pending = null;
      db.status = status;
      db.updated = this.runtime.clock.timestamp();
      if (status === "active" && db.hosts.primary === null) db.hosts = assignedHosts(db);
      if (status !== "active") databaseEvent({ runtime: this.runtime, account, user: null }, `database_${status}`, db);
      this.runtime.persist();
      return renderDatabase(db);
    }
    throw notFound();
  }
}
