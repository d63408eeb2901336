/** Account events: the log of operations (api-facts P6-1). Events are polled, never pushed. */
import { z } from "zod";
import { Timestamp } from "../core/schema";
import { endpoints, verbs } from "../core/endpoint";
import { resource } from "../core/resource";

/** An event's status: instant events are `notification`; long ones go `scheduled`/`started` → `finished`/`failed`. */
export const EventStatus = z.enum(["scheduled", "started", "finished", "failed", "notification"]);

/** The object an event is about (or its secondary object). */
export const EventEntity = z.looseObject({
  /** Integer for most entities; a string for images (`private/12`). */
  id: z.union([z.number().int(), z.string()]),
  type: z.string(),
  label: z.string().nullable(),
  url: z.string(),
});
export type EventEntity = z.infer<typeof EventEntity>;

/** An event of the account's log (api-facts P6-1). */
export const Event = z.looseObject({
  id: z.number().int(),
  action: z.string(),
  created: Timestamp,
  status: EventStatus,
  seen: z.boolean(),
  read: z.boolean(),
  percent_complete: z.number().int().nullable(),
  time_remaining: z.string().nullable(),
  rate: z.string().nullable(),
  duration: z.number().nullable(),
  username: z.string().nullable(),
  entity: EventEntity.nullable(),
  secondary_entity: EventEntity.nullable(),
  message: z.string().nullable(),
});
export type Event = z.infer<typeof Event>;

const EVENTS = verbs({ service: "events", auth: "token", scopes: ["events:read_only"] });

/** The `/account/events` endpoints. Read and seen marks are safe to repeat, so they are retried like a PUT. */
export const EVENT_ENDPOINTS = endpoints("account.events", {
  list: { ...EVENTS.list, path: "/account/events", summary: "Events of the account, newest first", response: Event },
  get: { ...EVENTS.get, path: "/account/events/{eventId}", summary: "One event", response: Event },
  markRead: { ...EVENTS.action, path: "/account/events/{eventId}/read", summary: "Mark one event read", idempotent: true },
  markSeen: {
    ...EVENTS.action,
    path: "/account/events/{eventId}/seen",
    summary: "Mark an event and all older ones seen",
    idempotent: true,
  },
});

/** `/account/events`: the account's operation log (last 90 days, newest first). Polled, never pushed. */
export class Events extends resource(EVENT_ENDPOINTS) {}
