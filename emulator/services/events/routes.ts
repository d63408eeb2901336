/** `/account/events*` (api-facts P6-1): scope `events:read_only` on all four. */
import { Event } from "../../../sdk/resources/events";
import { routeTable } from "../../core/route-table";
import type { RouteContext, RouteSpec } from "../../core/routes";
import { eventsNewestFirst, findEvent } from "./store";
import { markSeenUpTo } from "./operations";

export const EVENT_FILTERABLE = ["id", "action", "entity.id", "entity.type", "created", "seen", "read", "status", "username"] as const;

const api = routeTable("events", { read: ["events:read_only"] });
const eventOf = (ctx: RouteContext) => ctx.lookup("eventId", findEvent);

export const eventRoutes: RouteSpec[] = [
  api.read.list("/account/events", "Events of the account, newest first", { item: Event, filterable: EVENT_FILTERABLE }, (ctx) =>
    eventsNewestFirst(ctx.account),
  ),
  api.read.get("/account/events/{eventId}", "One event", { response: Event }, eventOf),
  api.read.post("/account/events/{eventId}/read", "Mark one event read", {}, (ctx) => {
    eventOf(ctx).read = true;
  }),
  api.read.post("/account/events/{eventId}/seen", "Mark an event and all older ones seen", {}, (ctx) => {
    markSeenUpTo(ctx.account, eventOf(ctx));
  }),
];
