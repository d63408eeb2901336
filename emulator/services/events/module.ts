/** The account's event log: `/account/events*`. Other services record events through `operations.ts`. */
import { defineService } from "../../core/service";
import { eventRoutes } from "./routes";
import { EVENTS, EVENT_ID } from "./store";

export const eventsModule = defineService({ name: "events", routes: eventRoutes, slices: [EVENTS], counters: [EVENT_ID] });
