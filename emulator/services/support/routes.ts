/**
 * `/support/tickets*` (spec "Support"). Reads need `account:read_only`, writes
 * `account:read_write`. Attachments arrive as multipart/form-data (field `file`) and are streamed,
 * never buffered: only their name and size are kept.
 */
import "@fastify/multipart";
import { Collection, Empty } from "../../../sdk/core/schema";
import {
  ReplyCreateRequest,
  SUPPORT_REASONS,
  Ticket,
  TicketOpenRequest,
  TicketReply,
  isAllowedAttachment,
} from "../../../sdk/resources/support";
import { badRequest, found, throwIfAny } from "../../core/errors";
import type { RouteContext, RouteSpec } from "../../core/routes";
import { findTicket, ticketsOpenFirst } from "./store";
import { renderTicket } from "./render";
import { addAttachment, addReply, closeTicket, openTicket } from "./operations";
import { checkTicketOpen } from "./rules";

/** The spec names no size limit; the emulator refuses attachments above this. */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;

export const TICKET_FILTERABLE = ["id", "summary", "status", "opened", "opened_by", "updated", "closed"] as const;

const READ = { service: "support", auth: "token", scopes: ["account:read_only"] } as const;
const WRITE = { service: "support", auth: "token", scopes: ["account:read_write"] } as const;

const ticketOf = (ctx: RouteContext) => found(findTicket(ctx.account, ctx.intParam("ticketId")));

function openTicketOf(ctx: RouteContext) {
  const ticket = ticketOf(ctx);
  if (ticket.status === "closed") throw badRequest(SUPPORT_REASONS.ticketClosed);
  return ticket;
}

export const supportRoutes: RouteSpec[] = [
  {
    ...READ,
    method: "GET",
    path: "/support/tickets",
    summary: "Tickets of the account, open ones first",
    filterable: TICKET_FILTERABLE,
    response: Collection(Ticket),
    handler: (ctx) => ctx.collection(ticketsOpenFirst(ctx.account).map(renderTicket)),
  },
  {
    ...WRITE,
    method: "POST",
    path: "/support/tickets",
    summary: "Open a ticket",
    response: Ticket,
    handler: (ctx) => {
      const request = ctx.body(TicketOpenRequest);
      const { errors, entity } = checkTicketOpen(ctx.account, request);
      throwIfAny(errors);
      const entityOrVlan = entity ?? (request.vlan !== undefined
        ? { id: 0, label: request.vlan, type: "vlan", url: `/v4/networking/vlans?region=${request.region}` }
        : null);
      return renderTicket(openTicket(ctx.actor, { summary: request.summary, description: request.description, entity: entityOrVlan, generated: false }));
    },
  },
  {
    ...READ,
    method: "GET",
    path: "/support/tickets/{ticketId}",
    summary: "One ticket",
    response: Ticket,
    handler: (ctx) => renderTicket(ticketOf(ctx)),
  },
  {
    ...WRITE,
    method: "POST",
    path: "/support/tickets/{ticketId}/attachments",
    summary: "Attach a file (multipart/form-data, field file)",
    response: Empty,
    handler: async (ctx) => {
      const ticket = openTicketOf(ctx);
      if (!ctx.request.isMultipart()) throw badRequest(SUPPORT_REASONS.attachmentMissing, "file");
      const part = await ctx.request.file({ limits: { fileSize: MAX_ATTACHMENT_BYTES, files: 1 } });
      if (!part || part.fieldname !== "file") throw badRequest(SUPPORT_REASONS.attachmentMissing, "file");
      let size = 0;
      for await (const chunk of part.file) size += (chunk as Buffer).length; // drained even when refused
      if (!isAllowedAttachment(part.filename)) throw badRequest(SUPPORT_REASONS.attachmentExtension, "file");
      if (part.file.truncated) throw badRequest(SUPPORT_REASONS.attachmentTooLarge(MAX_ATTACHMENT_BYTES), "file");
      addAttachment(ctx.actor, ticket, { name: part.filename, size });
      return {};
    },
  },
  {
    ...WRITE,
    method: "POST",
    path: "/support/tickets/{ticketId}/close",
    summary: "Close a ticket",
    response: Empty,
    handler: (ctx) => {
      const ticket = openTicketOf(ctx);
      if (ticket.generated) throw badRequest(SUPPORT_REASONS.notClosable);
      closeTicket(ctx.actor, ticket);
      return {};
    },
  },
  {
    ...READ,
    method: "GET",
    path: "/support/tickets/{ticketId}/replies",
    summary: "Replies of a ticket, oldest first",
    filterable: ["id", "created", "created_by"],
    response: Collection(TicketReply),
    handler: (ctx) => ctx.collection(ticketOf(ctx).replies),
  },
  {
    ...WRITE,
    method: "POST",
    path: "/support/tickets/{ticketId}/replies",
    summary: "Reply to a ticket",
    response: TicketReply,
    handler: (ctx) => {
      const ticket = openTicketOf(ctx);
      const { description } = ctx.body(ReplyCreateRequest);
      return addReply(ctx.actor, ticket, description, false);
    },
  },
];
