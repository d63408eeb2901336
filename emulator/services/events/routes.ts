/** `/account/events*` (api-facts P6-1): scope `events:read_only` on all four. */
import { EVENT_ENDPOINTS } from "../../../sdk/resources/events";
import { route } from "../../core/route-table";
import type { RouteContext, RouteSpec } from "../../core/routes";
import { eventsNewestFirst, findEvent } from "./store";
import { markSeenUpTo } from "./operations";

export const EVENT_FILTERABLE = ["id", "action", "entity.id", "entity.type", "created", "seen", "read", "status", "username"] as const;

const eventOf = (ctx: RouteContext) => ctx.lookup("eventId", findEvent);

export const eventRoutes: RouteSpec[] = [
  route(EVENT_ENDPOINTS.list, { filterable: EVENT_FILTERABLE }, (ctx) => eventsNewestFirst(ctx.account)),
  route(EVENT_ENDPOINTS.get, eventOf),
  route(EVENT_ENDPOINTS.markRead, (ctx) => {
    eventOf(ctx).read = true;
  }),
  route(EVENT_ENDPOINTS.markSeen, (ctx) => {
    markSeenUpTo(ctx.account, eventOf(ctx));
  }),
];
