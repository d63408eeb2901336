/** Tickets on the wire: key order of `fixtures/unrecorded/support_ticket.get.json`, plus `closable`. */
import type { Ticket } from "../../../sdk/resources/support";
import { type StoredTicket, gravatarId } from "./store";

export function renderTicket(ticket: StoredTicket): Ticket {
  return {
    id: ticket.id,
    attachments: ticket.attachments.map((a) => a.name),
    closed: ticket.closed,
    closable: !ticket.generated && ticket.status !== "closed",
    description: ticket.description,
    entity: ticket.entity,
    gravatar_id: gravatarId(ticket.opened_by),
    opened: ticket.opened,
    opened_by: ticket.opened_by,
    status: ticket.status,
    summary: ticket.summary,
    updated: ticket.updated,
    updated_by: ticket.updated_by,
  };
}
