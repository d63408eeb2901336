/**
 * Recording events (api-facts P6-1): instant operations log status `notification`; services with
 * long-running jobs update `status` / `percent_complete` of the same record as the job progresses.
 */
import type { Event, EventEntity } from "../../../sdk/resources/events";
import type { Actor } from "../../core/runtime";
import type { AccountState } from "../../core/state";
import { EVENTS, EVENT_ID, type StoredEvent, findEvent } from "./store";

/** What an event records besides its actor's name. */
export interface EventInput {
  action: string;
  entity: EventEntity | null;
  secondaryEntity?: EventEntity | null;
  status?: Event["status"];
  message?: string;
}

/** An entity in the event's own key order (`label, id, type, url`, as recorded). */
export function eventEntity(type: string, id: number | string, label: string | null, url: string): EventEntity {
  return { label, id, type, url };
}

/** Records an event of the actor's account, under the actor's name. */
export function recordEvent(actor: Actor, input: EventInput): StoredEvent {
  const status = input.status ?? "notification";
  const event: StoredEvent = {
    id: actor.runtime.nextId(EVENT_ID),
    created: actor.runtime.clock.timestamp(),
    seen: false,
    read: false,
    percent_complete: status === "notification" ? null : 0,
    time_remaining: null,
    rate: null,
    duration: null,
    action: input.action,
    username: actor.username,
    entity: input.entity,
    status,
    secondary_entity: input.secondaryEntity ?? null,
    message: input.message ?? "",
  };
  EVENTS.of(actor.account).push(event);
  return event;
}

/** `POST /account/events/{id}/seen` marks that event and every older one. */
export function markSeenUpTo(account: AccountState, event: StoredEvent): void {
  for (const e of EVENTS.of(account)) {
    if (e.created < event.created || (e.created === event.created && e.id <= event.id)) e.seen = true;
  }
}

/**
 * Ends job events at `atMs`: `finished` (percent 100) or `failed`, with their duration in seconds
 * since they were recorded; a `message` replaces the event's.
 */
export function closeEvents(
  account: AccountState,
  ids: readonly number[],
  outcome: "finished" | "failed",
  atMs: number,
  message?: string,
): void {
  for (const id of ids) {
    const event = findEvent(account, id);
    if (!event) continue;
    event.status = outcome;
    event.percent_complete = outcome === "finished" ? 100 : event.percent_complete;
    event.duration = Math.max(0, Math.round((atMs - Date.parse(`${event.created}Z`)) / 1000));
    if (message !== undefined) event.message = message;
  }
}
