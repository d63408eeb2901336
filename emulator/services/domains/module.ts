/**
 * Domains (DNS zones) and their records: `/domains*`, with zone transfers for imports and the
 * rendered zone file. The spec lists no grants for domains: scopes only.
 */
import { defineService } from "../../core/service";
import { domainRoutes } from "./routes";
import { DOMAINS, DOMAIN_ID, DOMAIN_RECORD_ID } from "./store";

export const domainsModule = defineService({
  name: "domains",
  routes: domainRoutes,
  slices: [DOMAINS],
  counters: [DOMAIN_ID, DOMAIN_RECORD_ID],
});
