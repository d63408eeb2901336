/**
 * Support tickets, their replies and attachments (spec "Support", api-facts P2-6, P3-3). The open
 * request carries every rule of the spec: at most one ID attribute; `managed_issue` excludes ID
 * attributes; `vlan` needs `region` and `region` belongs to a VLAN ticket only.
 */
import { z } from "zod";
import { undici } from "../core/undici";
import { Timestamp, filterable, requiredString } from "../core/schema";
import { ClientValidationError } from "../core/errors";
import { describeCall, endpoints, readWrite } from "../core/endpoint";
import { resource } from "../core/resource";
import type { CallOptions } from "../core/http";

/** The ID attributes a ticket may name (at most one), and the entity type each points at. */
export const TICKET_ID_ATTRIBUTES = {
  database_id: "database",
  domain_id: "domain",
  firewall_id: "firewall",
  compute_id: "compute",
  kubecluster_id: "lkecluster",
  monitorclient_id: "longview",
  nodebalancer_id: "nodebalancer",
  volume_id: "volume",
  vpc_id: "vpc",
} as const;
/** The name of an ID attribute a ticket may carry (`compute_id`, `vpc_id`, …). */
export type TicketIdAttribute = keyof typeof TICKET_ID_ATTRIBUTES;
const ID_ATTRIBUTES = Object.keys(TICKET_ID_ATTRIBUTES) as TicketIdAttribute[];

/** File extensions the API accepts as attachments. */
export const ATTACHMENT_EXTENSIONS = [".gif", ".jpg", ".jpeg", ".pjpg", ".pjpeg", ".tif", ".tiff", ".png", ".pdf", ".txt"] as const;

/** Reason texts of the support rules, shared with the emulator and the tests. */
export const SUPPORT_REASONS = {
  summaryLength: "Summary must be 1-64 characters",
  descriptionLength: "Description must be 1-65000 characters",
  replyLength: "Description must be 1-65535 characters",
  oneIdAttribute: `Only one of ${ID_ATTRIBUTES.join(", ")} may be given`,
  managedWithId: "A managed_issue ticket cannot name an entity ID",
  managedNotEnabled: "Managed services are not enabled on this account",
  vlanNeedsRegion: "region is required with vlan",
  regionOnlyWithVlan: "region may only be given with vlan",
  entityNotFound: (attribute: string) => `${attribute} does not name an object of this account`,
  vlanNotFound: "vlan does not name a VLAN in this region",
  attachmentExtension: `Attachments must be one of: ${ATTACHMENT_EXTENSIONS.join(", ")}`,
  attachmentMissing: "file is required",
  attachmentTooLarge: (maxBytes: number) => `Attachments may be at most ${Math.floor(maxBytes / 1048576)} MB`,
  ticketClosed: "This ticket is closed",
  notClosable: "This ticket cannot be closed",
} as const;

const idAttribute = z.number({ error: "must be an integer id" }).int("must be an integer id").positive("must be an integer id");

/** The body of `POST /support/tickets`, with every open rule of the spec. */
export const TicketOpenRequest = z
  .strictObject({
    summary: requiredString("summary").min(1, SUPPORT_REASONS.summaryLength).max(64, SUPPORT_REASONS.summaryLength),
    description: requiredString("description").min(1, SUPPORT_REASONS.descriptionLength).max(65000, SUPPORT_REASONS.descriptionLength),
    database_id: idAttribute.optional(),
    domain_id: idAttribute.optional(),
    firewall_id: idAttribute.optional(),
    compute_id: idAttribute.optional(),
    kubecluster_id: idAttribute.optional(),
    monitorclient_id: idAttribute.optional(),
    nodebalancer_id: idAttribute.optional(),
    volume_id: idAttribute.optional(),
    vpc_id: idAttribute.optional(),
    managed_issue: z.boolean().optional(),
    vlan: z.string().min(1).optional(),
    region: z.string().min(1).optional(),
  })
  .superRefine((body, ctx) => {
    const given = ID_ATTRIBUTES.filter((key) => body[key] !== undefined);
    for (const extra of given.slice(1)) ctx.addIssue({ code: "custom", path: [extra], message: SUPPORT_REASONS.oneIdAttribute });
    if (body.managed_issue === true && given.length > 0)
      ctx.addIssue({ code: "custom", path: ["managed_issue"], message: SUPPORT_REASONS.managedWithId });
    if (body.vlan !== undefined && body.region === undefined)
      ctx.addIssue({ code: "custom", path: ["region"], message: SUPPORT_REASONS.vlanNeedsRegion });
    if (body.region !== undefined && body.vlan === undefined)
      ctx.addIssue({ code: "custom", path: ["region"], message: SUPPORT_REASONS.regionOnlyWithVlan });
  });
export type TicketOpenRequest = z.infer<typeof TicketOpenRequest>;

/** The body of `POST /support/tickets/{ticketId}/replies`. */
export const ReplyCreateRequest = z.strictObject({
  description: requiredString("description").min(1, SUPPORT_REASONS.replyLength).max(65535, SUPPORT_REASONS.replyLength),
});
export type ReplyCreateRequest = z.infer<typeof ReplyCreateRequest>;

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

/** True when the API accepts files with this name. */
export function isAllowedAttachment(filename: string): boolean {
  const lower = filename.toLowerCase();
  return ATTACHMENT_EXTENSIONS.some((ext) => lower.endsWith(ext));
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
