/**
 * Support tickets: the ID attributes a ticket may name, the attachment extensions, the reason texts
 * and the request schemas with every open rule of the spec (at most one ID attribute;
 * `managed_issue` excludes ID attributes; `vlan` needs `region` and `region` belongs to a VLAN
 * ticket only), shared by the sdk's validation and the emulator's checks (re-exported by
 * `support.ts`; api-facts P2-6, P3-3).
 */
import { z } from "zod";
import { requiredString } from "../core/schema";

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
/** Each ID attribute, optional, in `TICKET_ID_ATTRIBUTES`' order. */
const idAttributes = Object.fromEntries(ID_ATTRIBUTES.map((key) => [key, idAttribute.optional()])) as {
  [K in keyof typeof TICKET_ID_ATTRIBUTES]: z.ZodOptional<typeof idAttribute>;
};

/** The body of `POST /support/tickets`, with every open rule of the spec. */
export const TicketOpenRequest = z
  .strictObject({
    summary: requiredString("summary").min(1, SUPPORT_REASONS.summaryLength).max(64, SUPPORT_REASONS.summaryLength),
    description: requiredString("description").min(1, SUPPORT_REASONS.descriptionLength).max(65000, SUPPORT_REASONS.descriptionLength),
    ...idAttributes,
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

/** True when the API accepts files with this name. */
export function isAllowedAttachment(filename: string): boolean {
  const lower = filename.toLowerCase();
  return ATTACHMENT_EXTENSIONS.some((ext) => lower.endsWith(ext));
}
