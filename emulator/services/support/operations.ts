/**
 * The state changes of tickets with their events (`ticket_create`, `ticket_update`,
 * `ticket_attachment_upload`, api-facts P6-2), made by the customer (a route's caller) or by the
 * provider's staff (`PROVIDER_USERNAME`, control operations).
 */
import type { Ticket, TicketReply } from "../../../sdk/resources/support";
import type { NamedActor } from "../../core/runtime";
import { eventEntity, recordEvent } from "../events/operations";
import { REPLY_ID, TICKETS, TICKET_ID, type StoredTicket, type StoredTicketAttachment, gravatarId } from "./store";

function ticketEvent(actor: NamedActor, ticket: StoredTicket, action: string): void {
  recordEvent(actor, { action, entity: eventEntity("ticket", ticket.id, ticket.summary, `/v4/support/tickets/${ticket.id}`) });
}

export interface TicketDraft {
  summary: string;
  description: string;
  entity: Ticket["entity"];
  generated: boolean;
}

export function openTicket(actor: NamedActor, draft: TicketDraft): StoredTicket {
  const now = actor.runtime.clock.timestamp();
  const ticket: StoredTicket = {
    id: actor.runtime.nextId(TICKET_ID),
    summary: draft.summary,
    description: draft.description,
    entity: draft.entity,
    status: "new",
    opened: now,
    opened_by: actor.username,
    updated: now,
    updated_by: actor.username,
    closed: null,
    generated: draft.generated,
    attachments: [],
    replies: [],
  };
  TICKETS.of(actor.account).push(ticket);
  ticketEvent(actor, ticket, "ticket_create");
  return ticket;
}

function touch(actor: NamedActor, ticket: StoredTicket): void {
  ticket.updated = actor.runtime.clock.timestamp();
  ticket.updated_by = actor.username;
}

/** A reply; one from the provider's staff moves a new ticket to `open`. */
export function addReply(actor: NamedActor, ticket: StoredTicket, description: string, fromProvider: boolean): TicketReply {
  const reply: TicketReply = {
    id: actor.runtime.nextId(REPLY_ID),
    created: actor.runtime.clock.timestamp(),
    created_by: actor.username,
    description,
    from_compute: fromProvider,
    gravatar_id: gravatarId(actor.username),
  };
  ticket.replies.push(reply);
  if (fromProvider && ticket.status === "new") ticket.status = "open";
  touch(actor, ticket);
  ticketEvent(actor, ticket, "ticket_update");
  return reply;
}

export function closeTicket(actor: NamedActor, ticket: StoredTicket): void {
  ticket.status = "closed";
  ticket.closed = actor.runtime.clock.timestamp();
  touch(actor, ticket);
  ticketEvent(actor, ticket, "ticket_update");
}

export function addAttachment(actor: NamedActor, ticket: StoredTicket, attachment: StoredTicketAttachment): void {
  ticket.attachments.push(attachment);
  touch(actor, ticket);
  ticketEvent(actor, ticket, "ticket_attachment_upload");
}
