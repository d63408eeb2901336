/**
 * Support tickets of an account (api-facts P2-6, P3-3): stored records, their wire rendering (key
 * order of `fixtures/unrecorded/support_ticket.get.json` plus `closable`), replies, attachments and
 * the state changes with their events (`ticket_create`, `ticket_update`,
 * `ticket_attachment_upload`, P6-2). A new ticket is `new`; a reply from the provider's staff makes
 * it `open`; closing makes it `closed`. Tickets the provider opens itself cannot be closed by the
 * customer.
 */
import type { Ticket, TicketReply } from "../../../sdk/resources/support";
import type { EmulatorRuntime } from "../../core/runtime";
import type { AccountState } from "../../core/state";
import { eventEntity, recordEvent } from "../events/models";

/** The name the provider's staff and generated tickets carry. */
export const PROVIDER_USERNAME = "compute";

export interface TicketAttachmentRecord {
  name: string;
  size: number;
}

export interface TicketRecord {
  id: number;
  summary: string;
  description: string;
  entity: Ticket["entity"];
  status: Ticket["status"];
  opened: string;
  opened_by: string;
  updated: string;
  updated_by: string | null;
  closed: string | null;
  /** Opened by the provider (a generated ticket): the customer cannot close it. */
  generated: boolean;
  attachments: TicketAttachmentRecord[];
  replies: TicketReply[];
}

export interface Actor {
  runtime: EmulatorRuntime;
  account: AccountState;
  username: string;
}

export function findTicket(account: AccountState, id: number): TicketRecord | undefined {
  return account.tickets.find((t) => t.id === id);
}

export function renderTicket(ticket: TicketRecord): Ticket {
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

/** The API lists open tickets (new or open) first, newest first within each group. */
export function ticketsOpenFirst(account: AccountState): TicketRecord[] {
  const rank = (t: TicketRecord) => (t.status === "closed" ? 1 : 0);
  return [...account.tickets].sort((a, b) => rank(a) - rank(b) || (a.opened < b.opened ? 1 : a.opened > b.opened ? -1 : b.id - a.id));
}

function ticketEvent(actor: Actor, ticket: TicketRecord, action: string): void {
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

export function openTicket(actor: Actor, draft: TicketDraft): TicketRecord {
  const now = actor.runtime.clock.timestamp();
  const ticket: TicketRecord = {
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

function touch(actor: Actor, ticket: TicketRecord): void {
  ticket.updated = actor.runtime.clock.timestamp();
  ticket.updated_by = actor.username;
}

/** A reply; one from the provider's staff moves a new ticket to `open`. */
export function addReply(actor: Actor, ticket: TicketRecord, description: string, fromProvider: boolean): TicketReply {
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

export function closeTicket(actor: Actor, ticket: TicketRecord): void {
  ticket.status = "closed";
  ticket.closed = actor.runtime.clock.timestamp();
  touch(actor, ticket);
  ticketEvent(actor, ticket, "ticket_update");
}

export function addAttachment(actor: Actor, ticket: TicketRecord, attachment: TicketAttachmentRecord): void {
  ticket.attachments.push(attachment);
  touch(actor, ticket);
  ticketEvent(actor, ticket, "ticket_attachment_upload");
}

/** Gravatar ids are md5 hashes of an e-mail address; the emulator derives a stable stand-in. */
function gravatarId(username: string): string {
  let hash = 0;
  for (const char of username) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash.toString(16).padStart(8, "0").repeat(4);
}
