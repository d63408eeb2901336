/**
 * Support tickets, their replies and attachments (spec "Support", api-facts P2-6, P3-3): the
 * records, the endpoint table and the class. The reason texts and the request schemas, with every
 * open rule of the spec, are in `sdk/rules/support.ts`, re-exported here.
 */
import { z } from "zod";
import { undici } from "../core/undici";
import { Timestamp, filterable } from "../core/schema";
import { ClientValidationError } from "../core/errors";
import { describeCall, endpoints, readWrite } from "../core/endpoint";
import { resource } from "../core/resource";
import type { CallOptions } from "../core/http";
import { ReplyCreateRequest, SUPPORT_REASONS, TicketOpenRequest, isAllowedAttachment } from "../rules/support";
export * from "../rules/support";

/** A ticket's status: `new`, `open` or `closed` (api-facts P3-3). */
export const TicketStatus = z.enum(["new", "open", "closed"]);

/** The object a ticket is about. */
export const TicketEntity = z.looseObject({
  id: z.number().int(),
  label: z.string().nullable(),
  type: z.string(),
  url: z.string(),
});

/** A support ticket as the API returns it (api-facts P2-6). */
export const Ticket = z.looseObject({
  id: z.number().int(),
  attachments: z.array(z.string()),
  closed: Timestamp.nullable(),
  /** Whether the caller may close it. Absent from the hand-written recordings. */
  closable: z.boolean().optional(),
  description: z.string(),
  entity: TicketEntity.nullable(),
  gravatar_id: z.string(),
  opened: Timestamp,
  opened_by: z.string(),
  status: TicketStatus,
  summary: z.string(),
  updated: Timestamp,
  updated_by: z.string().nullable(),
});
export type Ticket = z.infer<typeof Ticket>;

/** A reply to a support ticket. */
export const TicketReply = z.looseObject({
  id: filterable(z.number().int()),
  created: filterable(Timestamp),
  created_by: filterable(z.string()),
  description: z.string(),
  /** True when written by the provider's staff. */
  from_compute: z.boolean(),
  gravatar_id: z.string(),
});
export type TicketReply = z.infer<typeof TicketReply>;

/** An attachment to upload: a file name (its extension is checked) and the bytes. */
export interface Attachment {
  filename: string;
  data: Uint8Array | Blob;
}

const [READ, WRITE] = readWrite("support", "account");

/** The `/support/tickets` endpoints (spec "Support"). */
export const TICKET_ENDPOINTS = endpoints("support.tickets", {
  list: { ...READ.list, path: "/support/tickets", summary: "Tickets of the account, open ones first", response: Ticket },
  open: { ...WRITE.post, path: "/support/tickets", summary: "Open a ticket", body: TicketOpenRequest, response: Ticket },
  get: { ...READ.get, path: "/support/tickets/{ticketId}", summary: "One ticket", response: Ticket },
  attach: {
    ...WRITE.action,
    path: "/support/tickets/{ticketId}/attachments",
    summary: "Attach a file (multipart/form-data, field file)",
    multipart: { file: "file" },
  },
  close: { ...WRITE.action, path: "/support/tickets/{ticketId}/close", summary: "Close a ticket" },
  /** `/support/tickets/{ticketId}/replies`. */
  replies: {
    list: {
      ...READ.list,
      path: "/support/tickets/{ticketId}/replies",
      summary: "Replies of a ticket, oldest first",
      response: TicketReply,
    },
    create: {
      ...WRITE.post,
      path: "/support/tickets/{ticketId}/replies",
      summary: "Reply to a ticket",
      body: ReplyCreateRequest,
      // The official TypeScript client (and so the web console) repeats the ticket's id in the body.
      echoedFields: ["ticket_id"],
      response: TicketReply,
    },
  },
});

/** `/support/tickets`: the account's support tickets, with their replies (`tickets.replies`). */
export class Tickets extends resource(TICKET_ENDPOINTS, { own: ["attach"] }) {
  /**
   * `POST /support/tickets/{ticketId}/attachments` as multipart/form-data (field `file`). A file
   * whose extension the API refuses is refused here, before sending.
   */
  async attach(ticketId: number, attachment: Attachment, options: CallOptions = {}): Promise<void> {
    const attach = this.endpoints.attach;
    if (!isAllowedAttachment(attachment.filename)) {
      const entry = { field: attach.multipart.file, reason: SUPPORT_REASONS.attachmentExtension };
      throw new ClientValidationError(describeCall(attach, { ticketId }), [entry]);
    }
    const form = new (undici().FormData)();
    const blob = attachment.data instanceof Blob ? attachment.data : new Blob([attachment.data]);
    form.append(attach.multipart.file, blob, attachment.filename);
    await this.http.call(attach, { ticketId }, form, options);
  }
}
