/**
 * The account's event log (api-facts P6-1): events are stored in wire shape and key order
 * (`fixtures/event.get.json`); `operations.ts` records them.
 */
import type { Event } from "../../../sdk/resources/events";
import type { AccountState } from "../../core/state";

/** An event as stored: the wire record itself. */
export type StoredEvent = Event;

/** Newest first, as the API lists them; ids break ties within one second. */
export function eventsNewestFirst(account: AccountState): StoredEvent[] {
  return [...account.events].sort((a, b) => (a.created < b.created ? 1 : a.created > b.created ? -1 : b.id - a.id));
}

export function findEvent(account: AccountState, id: number): StoredEvent | undefined {
  return account.events.find((e) => e.id === id);
}
