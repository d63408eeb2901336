/**
 * Plan availability, generated deterministically to match the recording
 * (`GET /regions/availability`: 299 entries, 3 pages of 100):
 * - 13 select plans (4 GPU, 9 premium) per listed region, plans in lexical order;
 * - 23 regions, in the platform's internal region order; `ap-northeast` and `es-mad` are absent;
 * - premium plans are available exactly in regions with the `Premium Plans` capability; GPU
 *   plans were unavailable everywhere in the recording.
 */
import type { Region, RegionAvailability } from "../../../sdk/resources/regions";
import { REGION_CATALOG } from "./catalog";

export const AVAILABILITY_PLANS: readonly string[] = [
  "gpu-rtx6000-1.1",
  "gpu-rtx6000-2.1",
  "gpu-rtx6000-3.1",
  "gpu-rtx6000-4.1",
  "premium131072.7",
  "premium16384.7",
  "premium262144.7",
  "premium32768.7",
  "premium4096.7",
  "premium524288.7",
  "premium65536.7",
  "premium8192.7",
  "premium98304.7",
];

/** Region order of the recorded availability list. */
export const AVAILABILITY_REGION_ORDER: readonly string[] = [
  "us-central",
  "us-west",
  "us-southeast",
  "us-east",
  "eu-west",
  "ap-south",
  "eu-central",
  "ap-west",
  "ca-central",
  "ap-southeast",
  "us-iad",
  "us-ord",
  "fr-par",
  "us-sea",
  "br-gru",
  "nl-ams",
  "se-sto",
  "in-maa",
  "jp-osa",
  "it-mil",
  "us-mia",
  "id-cgk",
  "us-lax",
];

function isAvailable(region: Region, plan: string): boolean {
  return plan.startsWith("premium") && region.capabilities.includes("Premium Plans");
}

export function availabilityFor(region: Region): RegionAvailability[] {
  return AVAILABILITY_PLANS.map((plan) => ({ region: region.id, plan, available: isAvailable(region, plan) }));
}

export function buildAvailabilityList(catalog: readonly Region[] = REGION_CATALOG): RegionAvailability[] {
  const byId = new Map(catalog.map((r) => [r.id, r]));
  return AVAILABILITY_REGION_ORDER.flatMap((id) => {
    const region = byId.get(id);
    return region ? availabilityFor(region) : [];
  });
}
