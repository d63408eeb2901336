/** `/account/events*` (api-facts P6-1): scope `events:read_only` on all four. */
import { Collection, Empty } from "../../../sdk/core/schema";
import { Event } from "../../../sdk/resources/events";
import { found } from "../../core/errors";
import type { RouteSpec } from "../../core/routes";
import { eventsNewestFirst, findEvent } from "./store";
import { markSeenUpTo } from "./operations";

const scopes = ["events:read_only"];
const common = { service: "events", auth: "token", scopes } as const;

export const EVENT_FILTERABLE = ["id", "action", "entity.id", "entity.type", "created", "seen", "read", "status", "username"] as const;

export const eventRoutes: RouteSpec[] = [
  {
    ...common,
    method: "GET",
    path: "/account/events",
    summary: "Events of the account, newest first",
    filterable: EVENT_FILTERABLE,
    response: Collection(Event),
    handler: (ctx) => ctx.collection(eventsNewestFirst(ctx.account)),
  },
  {
    ...common,
    method: "GET",
    path: "/account/events/{eventId}",
    summary: "One event",
    response: Event,
    handler: (ctx) => found(findEvent(ctx.account, ctx.intParam("eventId"))),
  },
  {
    ...common,
    method: "POST",
    path: "/account/events/{eventId}/read",
    summary: "Mark one event read",
    response: Empty,
    handler: (ctx) => {
      const event = found(findEvent(ctx.account, ctx.intParam("eventId")));
      event.read = true;
      return {};
    },
  },
  {
    ...common,
    method: "POST",
    path: "/account/events/{eventId}/seen",
    summary: "Mark an event and all older ones seen",
    response: Empty,
    handler: (ctx) => {
      const event = found(findEvent(ctx.account, ctx.intParam("eventId")));
      markSeenUpTo(ctx.account, event);
      return {};
    },
  },
];
