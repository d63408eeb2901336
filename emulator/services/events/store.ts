/**
 * The account's event log (api-facts P6-1): events are stored in wire shape and key order
 * (`fixtures/event.get.json`); `operations.ts` records them.
 */
import type { Event } from "../../../sdk/resources/events";
import { type AccountState, accountSlice, idCounter } from "../../core/state";

/** An event as stored: the wire record itself. */
export type StoredEvent = Event;

/** `accounts[id].events`: in the order they were recorded. */
export const EVENTS = accountSlice("events", (): StoredEvent[] => []);
export const EVENT_ID = idCounter("event", 600_000_000);

/** Newest first, as the API lists them; ids break ties within one second. */
export function eventsNewestFirst(account: AccountState): StoredEvent[] {
  return [...EVENTS.of(account)].sort((a, b) => (a.created < b.created ? 1 : a.created > b.created ? -1 : b.id - a.id));
}

export function findEvent(account: AccountState, id: number): StoredEvent | undefined {
  return EVENTS.of(account).find((e) => e.id === id);
}
