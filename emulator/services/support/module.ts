/** Support tickets: `/support/tickets*`, plus the provider's side through the control API. */
import { defineService } from "../../core/service";
import { supportControl } from "./control";
import { supportRoutes } from "./routes";
import { MANAGED, REPLY_ID, TICKETS, TICKET_ID } from "./store";

export const supportModule = defineService({
  name: "support",
  routes: supportRoutes,
  slices: [TICKETS, MANAGED],
  counters: [TICKET_ID, REPLY_ID],
  control: supportControl,
});
