/**
 * The state changes of tickets with their events (`ticket_create`, `ticket_update`,
 * `ticket_attachment_upload`, api-facts P6-2).
 */
import type { Ticket, TicketReply } from "../../../sdk/resources/support";
import type { EmulatorRuntime } from "../../core/runtime";
import type { AccountState } from "../../core/state";
import { eventEntity, recordEvent } from "../events/operations";
import { type StoredTicket, type StoredTicketAttachment, gravatarId } from "./store";

export interface Actor {
  runtime: EmulatorRuntime;
  account: AccountState;
  username: string;
}

function ticketEvent(actor: Actor, ticket: StoredTicket, action: string): void {
  recordEvent(actor.runtime, actor.account, {
    action,
    username: actor.username,
    entity: eventEntity("ticket", ticket.id, ticket.summary, `/v4/support/tickets/${ticket.id}`),
  });
}

export interface TicketDraft {
  summary: string;
  description: string;
  entity: Ticket["entity"];
  generated: boolean;
}

export function openTicket(actor: Actor, draft: TicketDraft): StoredTicket {
  const now = actor.runtime.clock.timestamp();
  const ticket: StoredTicket = {
    id: actor.runtime.nextId("ticket"),
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
  actor.account.tickets.push(ticket);
  ticketEvent(actor, ticket, "ticket_create");
  return ticket;
}

function touch(actor: Actor, ticket: StoredTicket): void {
  ticket.updated = actor.runtime.clock.timestamp();
  ticket.updated_by = actor.username;
}

/** A reply; one from the provider's staff moves a new ticket to `open`. */
export function addReply(actor: Actor, ticket: StoredTicket, description: string, fromProvider: boolean): TicketReply {
  const reply: TicketReply = {
    id: actor.runtime.nextId("reply"),
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

export function closeTicket(actor: Actor, ticket: StoredTicket): void {
  ticket.status = "closed";
  ticket.closed = actor.runtime.clock.timestamp();
  touch(actor, ticket);
  ticketEvent(actor, ticket, "ticket_update");
}

export function addAttachment(actor: Actor, ticket: StoredTicket, attachment: StoredTicketAttachment): void {
  ticket.attachments.push(attachment);
  touch(actor, ticket);
  ticketEvent(actor, ticket, "ticket_attachment_upload");
}
