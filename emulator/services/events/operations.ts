/**
 * Recording events (api-facts P6-1): instant operations log status `notification`; services with
 * long-running jobs update `status` / `percent_complete` of the same record as the job progresses.
 * Events are the API's own data and stay as long as the API keeps them: `GET /account/events`
 * covers the last 90 days (P6-1), so recording an event forgets the account's events older than
 * that — a long-running emulator's event log is bounded by time, not by how many requests it served.
 */
import type { Event, EventEntity } from "../../../sdk/resources/events";
import type { Actor } from "../../core/runtime";
import type { AccountState } from "../../core/state";
import { formatTimestamp } from "../../core/clock";
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
  const events = EVENTS.of(actor.account);
  forgetExpiredEvents(events, actor.runtime.clock.nowMs());
  events.push(event);
  return event;
}

/** How long the API keeps events (P6-1: the event list covers the last 90 days). */
export const EVENT_RETENTION_MS = 90 * 86_400_000;

/** Drops the events recorded more than 90 days before `nowMs` (they are kept in recording order). */
function forgetExpiredEvents(events: StoredEvent[], nowMs: number): void {
  const oldestKept = formatTimestamp(nowMs - EVENT_RETENTION_MS);
  let expired = 0;
  while (expired < events.length && events[expired]!.created < oldestKept) expired++;
  if (expired > 0) events.splice(0, expired);
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
