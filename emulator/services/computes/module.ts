/**
 * Compute instances, seeded through the control API only (no `/v4` routes): other services read
 * them. Firewall assignment and address changes need grants on them.
 */
import { defineService } from "../../core/service";
import { computesControl } from "./control";
import { COMPUTES, COMPUTE_ID, CONFIG_ID, DISK_ID, INTERFACE_ID } from "./store";

export const computesModule = defineService({
  name: "computes",
  slices: [COMPUTES],
  counters: [COMPUTE_ID, CONFIG_ID, INTERFACE_ID, DISK_ID],
  grants: { objects: ["compute"] },
  control: computesControl,
});
