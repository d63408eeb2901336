/** Account events: the log of operations (api-facts P6-1). Events are polled, never pushed. */
import { z } from "zod";
import { Timestamp } from "../core/schema";

export const EventStatus = z.enum(["scheduled", "started", "finished", "failed", "notification"]);

export const EventEntity = z.looseObject({
  /** Integer for most entities; a string for images (`private/12`). */
  id: z.union([z.number().int(), z.string()]),
  type: z.string(),
  label: z.string().nullable(),
  url: z.string(),
});
export type EventEntity = z.infer<typeof EventEntity>;

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
