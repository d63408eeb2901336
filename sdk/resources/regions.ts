/** Regions: the catalog of regions and the availability of select plans. No authorization needed. */
import { z } from "zod";

export const RegionStatus = z.enum(["ok", "outage"]);

export const Region = z.looseObject({
  id: z.string(),
  label: z.string(),
  country: z.string(),
  capabilities: z.array(z.string()),
  status: RegionStatus,
  /** Comma-separated lists of resolver addresses. */
  resolvers: z.looseObject({ ipv4: z.string(), ipv6: z.string() }),
  /** Present in recordings though not in the spec (`core`, `edge`, …). */
  site_type: z.string().optional(),
});
export type Region = z.infer<typeof Region>;

export const RegionAvailability = z.looseObject({
  region: z.string(),
  plan: z.string(),
  available: z.boolean(),
});
export type RegionAvailability = z.infer<typeof RegionAvailability>;
