/**
 * `/support/tickets*` (spec "Support"). Reads need `account:read_only`, writes
 * `account:read_write`. Attachments arrive as multipart/form-data (field `file`) and are streamed,
 * never buffered: only their name and size are kept.
 */
import "@fastify/multipart";
import { filterableFields } from "../../../sdk/core/schema";
import { SUPPORT_REASONS, TICKET_ENDPOINTS, TicketReply, isAllowedAttachment } from "../../../sdk/resources/support";
import { badRequest, throwIfAny } from "../../core/errors";
import { route } from "../../core/route-table";
import type { RouteContext, RouteSpec } from "../../core/routes";
import { findTicket, ticketsOpenFirst } from "./store";
import { renderTicket } from "./render";
import { addAttachment, addReply, closeTicket, openTicket } from "./operations";
import { checkTicketOpen } from "./rules";

/** The spec names no size limit; the emulator refuses attachments above this. */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;

export const TICKET_FILTERABLE = ["id", "summary", "status", "opened", "opened_by", "updated", "closed"] as const;

export const REPLY_FILTERABLE = filterableFields(TicketReply);

const ticketOf = (ctx: RouteContext) => ctx.lookup("ticketId", findTicket);

function openTicketOf(ctx: RouteContext) {
  const ticket = ticketOf(ctx);
  if (ticket.status === "closed") throw badRequest(SUPPORT_REASONS.ticketClosed);
  return ticket;
}

export const supportRoutes: RouteSpec[] = [
  route(TICKET_ENDPOINTS.list, { filterable: TICKET_FILTERABLE }, (ctx) => ticketsOpenFirst(ctx.account).map(renderTicket)),
  route(TICKET_ENDPOINTS.open, (ctx) => {
    const request = ctx.body();
    const { errors, entity } = checkTicketOpen(ctx.account, request);
    throwIfAny(errors);
    const entityOrVlan =
      entity ??
      (request.vlan !== undefined
        ? { id: 0, label: request.vlan, type: "vlan", url: `/v4/networking/vlans?region=${request.region}` }
        : null);
    const draft = { summary: request.summary, description: request.description, entity: entityOrVlan, generated: false };
    return renderTicket(openTicket(ctx.actor, draft));
  }),
  route(TICKET_ENDPOINTS.get, (ctx) => renderTicket(ticketOf(ctx))),
  route(TICKET_ENDPOINTS.attach, async (ctx) => {
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
  route(TICKET_ENDPOINTS.close, (ctx) => {
    const ticket = openTicketOf(ctx);
    if (ticket.generated) throw badRequest(SUPPORT_REASONS.notClosable);
    closeTicket(ctx.actor, ticket);
  }),
  route(TICKET_ENDPOINTS.replies.list, { filterable: REPLY_FILTERABLE }, (ctx) => ticketOf(ctx).replies),
  route(TICKET_ENDPOINTS.replies.create, (ctx) => {
    const ticket = openTicketOf(ctx);
    const { description } = ctx.body();
    return addReply(ctx.actor, ticket, description, false);
  }),
];
