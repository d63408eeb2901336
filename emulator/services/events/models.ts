/**
 * The account's event log (api-facts P6-1). Records are stored in wire shape and key order
 * (`fixtures/event.get.json`); instant operations log status `notification`. Later services with
 * long-running jobs update `status` / `percent_complete` of the same record on the clock.
 */
import type { Event, EventEntity } from "../../../sdk/resources/events";
import type { EmulatorRuntime } from "../../core/runtime";
import type { AccountState } from "../../core/state";

export type EventRecord = Event;

export interface EventInput {
  action: string;
  username: string | null;
  entity: EventEntity | null;
  secondaryEntity?: EventEntity | null;
  status?: Event["status"];
  message?: string;
}

/** An entity in the event's own key order (`label, id, type, url`, as recorded). */
export function eventEntity(type: string, id: number | string, label: string | null, url: string): EventEntity {
  return { label, id, type, url };
}

export function recordEvent(runtime: EmulatorRuntime, account: AccountState, input: EventInput): EventRecord {
  const status = input.status ?? "notification";
  const event: EventRecord = {
    id: runtime.nextId("event"),
    created: runtime.clock.timestamp(),
    seen: false,
    read: false,
    percent_complete: status === "notification" ? null : 0,
    time_remaining: null,
    rate: null,
    duration: null,
    action: input.action,
    username: input.username,
    entity: input.entity,
    status,
    secondary_entity: input.secondaryEntity ?? null,
    message: input.message ?? "",
  };
  account.events.push(event);
  return event;
}

/** Newest first, as the API lists them; ids break ties within one second. */
export function eventsNewestFirst(account: AccountState): EventRecord[] {
  return [...account.events].sort((a, b) => (a.created < b.created ? 1 : a.created > b.created ? -1 : b.id - a.id));
}

export function findEvent(account: AccountState, id: number): EventRecord | undefined {
  return account.events.find((e) => e.id === id);
}

/** `POST /account/events/{id}/seen` marks that event and every older one. */
export function markSeenUpTo(account: AccountState, event: EventRecord): void {
  for (const e of account.events) {
    if (e.created < event.created || (e.created === event.created && e.id <= event.id)) e.seen = true;
  }
}
