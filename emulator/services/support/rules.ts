/**
 * The open rules that need state (the request schema already checks the rest): the one ID
 * attribute must name an object of the account, `managed_issue` needs a Managed service, a VLAN
 * ticket's region must exist.
 */
import { SUPPORT_REASONS, TICKET_ID_ATTRIBUTES, type Ticket, type TicketIdAttribute, type TicketOpenRequest } from "../../../sdk/resources/support";
import type { ErrorEntry } from "../../../sdk/core/schema";
import type { AccountState } from "../../core/state";
import { findRegion } from "../regions/catalog";

interface Locatable {
  id: number;
  label?: string | null;
  domain?: string;
  engine?: string;
}

/**
 * Where each ID attribute's objects live in the account, and their API path. Collections that a
 * service has not added to the account yet simply hold nothing.
 */
const ENTITY_SOURCES: Record<TicketIdAttribute, { collection: string; url: (o: Locatable) => string }> = {
  compute_id: { collection: "computes", url: (o) => `/v4/compute/instances/${o.id}` },
  vpc_id: { collection: "vpcs", url: (o) => `/v4/vpcs/${o.id}` },
  nodebalancer_id: { collection: "nodebalancers", url: (o) => `/v4/nodebalancers/${o.id}` },
  firewall_id: { collection: "firewalls", url: (o) => `/v4/networking/firewalls/${o.id}` },
  domain_id: { collection: "domains", url: (o) => `/v4/domains/${o.id}` },
  database_id: { collection: "databases", url: (o) => `/v4/databases/${o.engine ?? "mysql"}/instances/${o.id}` },
  volume_id: { collection: "volumes", url: (o) => `/v4/volumes/${o.id}` },
  kubecluster_id: { collection: "kubeclusters", url: (o) => `/v4/lke/clusters/${o.id}` },
  monitorclient_id: { collection: "monitorclients", url: (o) => `/v4/longview/clients/${o.id}` },
};

function collectionOf(account: AccountState, name: string): Locatable[] {
  const value = (account as unknown as Record<string, unknown>)[name];
  return Array.isArray(value) ? (value as Locatable[]) : [];
}

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
    const source = ENTITY_SOURCES[attribute];
    const object = collectionOf(account, source.collection).find((o) => o.id === id);
    if (!object) {
      errors.push({ field: attribute, reason: SUPPORT_REASONS.entityNotFound(attribute) });
      continue;
    }
    entity = { id, label: object.label ?? object.domain ?? null, type: TICKET_ID_ATTRIBUTES[attribute], url: source.url(object) };
  }
  if (request.managed_issue === true && !account.managed) errors.push({ field: "managed_issue", reason: SUPPORT_REASONS.managedNotEnabled });
  if (request.region !== undefined && !findRegion(request.region)) errors.push({ field: "region", reason: "Region is not valid" });
  return { errors, entity };
}
