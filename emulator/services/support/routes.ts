/**
 * `/support/tickets*` (spec "Support"). Reads need `account:read_only`, writes
 * `account:read_write`. Attachments arrive as multipart/form-data (field `file`) and are streamed,
 * never buffered: only their name and size are kept.
 */
import "@fastify/multipart";
import {
  ReplyCreateRequest,
  SUPPORT_REASONS,
  Ticket,
  TicketOpenRequest,
  TicketReply,
  isAllowedAttachment,
} from "../../../sdk/resources/support";
import { badRequest, throwIfAny } from "../../core/errors";
import { routeTable } from "../../core/route-table";
import type { RouteContext, RouteSpec } from "../../core/routes";
import { findTicket, ticketsOpenFirst } from "./store";
import { renderTicket } from "./render";
import { addAttachment, addReply, closeTicket, openTicket } from "./operations";
import { checkTicketOpen } from "./rules";

/** The spec names no size limit; the emulator refuses attachments above this. */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;

export const TICKET_FILTERABLE = ["id", "summary", "status", "opened", "opened_by", "updated", "closed"] as const;

export const REPLY_FILTERABLE = ["id", "created", "created_by"] as const;

const api = routeTable("support", { read: ["account:read_only"], write: ["account:read_write"] });
const ticketOf = (ctx: RouteContext) => ctx.lookup("ticketId", findTicket);

function openTicketOf(ctx: RouteContext) {
  const ticket = ticketOf(ctx);
  if (ticket.status === "closed") throw badRequest(SUPPORT_REASONS.ticketClosed);
  return ticket;
}

const TICKET = "/support/tickets/{ticketId}";

export const supportRoutes: RouteSpec[] = [
  api.read.list("/support/tickets", "Tickets of the account, open ones first", { item: Ticket, filterable: TICKET_FILTERABLE }, (ctx) =>
    ticketsOpenFirst(ctx.account).map(renderTicket),
  ),
  api.write.post("/support/tickets", "Open a ticket", { response: Ticket }, (ctx) => {
    const request = ctx.body(TicketOpenRequest);
    const { errors, entity } = checkTicketOpen(ctx.account, request);
    throwIfAny(errors);
    const entityOrVlan = entity ?? (request.vlan !== undefined
      ? { id: 0, label: request.vlan, type: "vlan", url: `/v4/networking/vlans?region=${request.region}` }
      : null);
    const draft = { summary: request.summary, description: request.description, entity: entityOrVlan, generated: false };
    return renderTicket(openTicket(ctx.actor, draft));
  }),
  api.read.get(TICKET, "One ticket", { response: Ticket }, (ctx) => renderTicket(ticketOf(ctx))),
  api.write.post(`${TICKET}/attachments`, "Attach a file (multipart/form-data, field file)", {}, async (ctx) => {
    const ticket = openTicketOf(ctx);
    if (!ctx.request.isMultipart()) throw badRequest(SUPPORT_REASONS.attachmentMissing, "file");
    const part = await ctx.request.file({ limits: { fileSize: MAX_ATTACHMENT_BYTES, files: 1 } });
    if (!part || part.fieldname !== "file") throw badRequest(SUPPORT_REASONS.attachmentMissing, "file");
    let size = 0;
    for await (const chunk of part.file) size += (chunk as Buffer).length; // drained even when refused
    if (!isAllowedAttachment(part.filename)) throw badRequest(SUPPORT_REASONS.attachmentExtension, "file");
    if (part.file.truncated) throw badRequest(SUPPORT_REASONS.attachmentTooLarge(MAX_ATTACHMENT_BYTES), "file");
    addAttachment(ctx.actor, ticket, { name: part.filename, size });
  }),
  api.write.post(`${TICKET}/close`, "Close a ticket", {}, (ctx) => {
    const ticket = openTicketOf(ctx);
    if (ticket.generated) throw badRequest(SUPPORT_REASONS.notClosable);
    closeTicket(ctx.actor, ticket);
  }),
  api.read.list(`${TICKET}/replies`, "Replies of a ticket, oldest first", { item: TicketReply, filterable: REPLY_FILTERABLE }, (ctx) =>
    ticketOf(ctx).replies,
  ),
  api.write.post(`${TICKET}/replies`, "Reply to a ticket", { response: TicketReply }, (ctx) => {
    const ticket = openTicketOf(ctx);
    const { description } = ctx.body(ReplyCreateRequest);
    return addReply(ctx.actor, ticket, description, false);
  }),
];
