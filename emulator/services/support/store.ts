/**
 * Support tickets of an account as stored (api-facts P2-6, P3-3), with their replies and
 * attachments. A new ticket is `new`; a reply from the provider's staff makes it `open`; closing
 * makes it `closed`. Tickets the provider opens itself cannot be closed by the customer. The wire
 * rendering is `render.ts`, the changes with their events `operations.ts`.
 */
import type { Ticket, TicketReply } from "../../../sdk/resources/support";
import { type AccountState, accountSlice, idCounter } from "../../core/state";

/** The name the provider's staff and generated tickets carry. */
export const PROVIDER_USERNAME = "compute";

export interface StoredTicketAttachment {
  name: string;
  size: number;
}

export interface StoredTicket {
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
  attachments: StoredTicketAttachment[];
  replies: TicketReply[];
}

/** `accounts[id].tickets`, with their replies and attachments. */
export const TICKETS = accountSlice("tickets", (): StoredTicket[] => []);
/** `accounts[id].managed`: a Managed service is enabled (needed for `managed_issue` tickets). */
export const MANAGED = accountSlice("managed", () => false);
export const TICKET_ID = idCounter("ticket", 14_000_000);
export const REPLY_ID = idCounter("reply", 28_000_000);

export function findTicket(account: AccountState, id: number): StoredTicket | undefined {
  return TICKETS.of(account).find((t) => t.id === id);
}

/** The API lists open tickets (new or open) first, newest first within each group. */
export function ticketsOpenFirst(account: AccountState): StoredTicket[] {
  const rank = (t: StoredTicket) => (t.status === "closed" ? 1 : 0);
  return [...TICKETS.of(account)].sort((a, b) => rank(a) - rank(b) || (a.opened < b.opened ? 1 : a.opened > b.opened ? -1 : b.id - a.id));
}

/** Gravatar ids are md5 hashes of an e-mail address; the emulator derives a stable stand-in. */
export function gravatarId(username: string): string {
  let hash = 0;
  for (const char of username) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash.toString(16).padStart(8, "0").repeat(4);
}
