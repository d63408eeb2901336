/** Account events: the log of operations (api-facts P6-1). Events are polled, never pushed. */
import { z } from "zod";
import { Empty, Timestamp } from "../core/schema";
import { path } from "../core/path";
import type { CallOptions, HttpClient } from "../core/http";
import { Paginator, type ListOptions } from "../core/pagination";

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

/** `/account/events`: the account's operation log (last 90 days, newest first). Polled, never pushed. */
export class Events {
  constructor(private readonly http: HttpClient) {}

  /**
   * Iterates events. Filter with `X-Filter`, e.g.
   * `{filter: {"+order_by": "created", "+order": "desc", action: "vpc_create", "entity.id": 12}}`.
   */
  list(options?: ListOptions): Paginator<Event> {
    return new Paginator(this.http, { path: "/account/events", item: Event }, options);
  }

  /** Every matching event, collected. */
  listAll(options?: ListOptions): Promise<Event[]> {
    return this.list(options).all();
  }

  /** `GET /account/events/{eventId}`. */
  get(eventId: number, options: CallOptions = {}): Promise<Event> {
    return this.http.request({ method: "GET", path: path`/account/events/${eventId}`, responseSchema: Event, signal: options.signal });
  }

  /** `POST /account/events/{eventId}/read`. Marking twice has the same effect, so it is retried like a PUT. */
  async markRead(eventId: number, options: CallOptions = {}): Promise<void> {
    await this.http.request({
      method: "POST",
      path: path`/account/events/${eventId}/read`,
      responseSchema: Empty,
      idempotent: true,
      signal: options.signal,
    });
  }

  /** `POST /account/events/{eventId}/seen`: marks this event and all older ones seen. Idempotent. */
  async markSeen(eventId: number, options: CallOptions = {}): Promise<void> {
    await this.http.request({
      method: "POST",
      path: path`/account/events/${eventId}/seen`,
      responseSchema: Empty,
      idempotent: true,
      signal: options.signal,
    });
  }
}
