/**
 * The open rules that need state (the request schema already checks the rest): the one ID
 * attribute must name an object of the account, `managed_issue` needs a Managed service, a VLAN
 * ticket's region must exist.
 */
import { SUPPORT_REASONS, TICKET_ID_ATTRIBUTES } from "../../../sdk/resources/support";
import type { Ticket, TicketIdAttribute, TicketOpenRequest } from "../../../sdk/resources/support";
import type { ErrorEntry } from "../../../sdk/core/schema";
import type { AccountState } from "../../core/state";
import { findRegion } from "../regions/catalog";
import { COMPUTES, computeUrl } from "../computes/store";
import { VPCS, vpcUrl } from "../vpcs/store";
import { NODEBALANCERS, nodebalancerUrl } from "../nodebalancers/store";
import { FIREWALLS, firewallUrl } from "../firewalls/store";
import { DOMAINS, domainUrl } from "../domains/store";
import { DATABASES, databaseUrl } from "../databases/store";
import { MANAGED } from "./store";

/** Where an ID attribute's objects live: the label and API path of the one with this id. */
interface EntitySource {
  find(account: AccountState, id: number): { label: string | null; url: string } | undefined;
}

function source<T extends { id: number }>(
  objects: (account: AccountState) => readonly T[],
  describe: (object: T) => { label: string | null; url: string },
): EntitySource {
  return {
    find: (account, id) => {
      const object = objects(account).find((o) => o.id === id);
      return object && describe(object);
    },
  };
}

/** Objects of services the emulator does not have: never found. */
const NOT_EMULATED: EntitySource = { find: () => undefined };

const ENTITY_SOURCES: Record<TicketIdAttribute, EntitySource> = {
  compute_id: source(COMPUTES.of, (c) => ({ label: c.label, url: computeUrl(c.id) })),
  vpc_id: source(VPCS.of, (v) => ({ label: v.label, url: vpcUrl(v.id) })),
  nodebalancer_id: source(NODEBALANCERS.of, (n) => ({ label: n.label, url: nodebalancerUrl(n.id) })),
  firewall_id: source(FIREWALLS.of, (f) => ({ label: f.label, url: firewallUrl(f.id) })),
  domain_id: source(DOMAINS.of, (d) => ({ label: d.domain, url: domainUrl(d.id) })),
  database_id: source(DATABASES.of, (d) => ({ label: d.label, url: databaseUrl(d) })),
  volume_id: NOT_EMULATED,
  kubecluster_id: NOT_EMULATED,
  monitorclient_id: NOT_EMULATED,
};

export interface OpenCheck {
  errors: ErrorEntry[];
  entity: Ticket["entity"];
}

export function checkTicketOpen(account: AccountState, request: TicketOpenRequest): OpenCheck {
  const errors: ErrorEntry[] = [];
  let entity: Ticket["entity"] = null;
  for (const attribute of Object.keys(TICKET_ID_ATTRIBUTES) as TicketIdAttribute[]) {
    const id = request[attribute];
    if (id === undefined) continue;
    const found = ENTITY_SOURCES[attribute].find(account, id);
    if (!found) {
      errors.push({ field: attribute, reason: SUPPORT_REASONS.entityNotFound(attribute) });
      continue;
    }
    entity = { id, label: found.label, type: TICKET_ID_ATTRIBUTES[attribute], url: found.url };
  }
  if (request.managed_issue === true && !MANAGED.of(account)) {
    errors.push({ field: "managed_issue", reason: SUPPORT_REASONS.managedNotEnabled });
  }
  if (request.region !== undefined && !findRegion(request.region)) errors.push({ field: "region", reason: "Region is not valid" });
  return { errors, entity };
}
