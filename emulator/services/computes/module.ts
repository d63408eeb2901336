/**
 * Compute instances: `/compute/instances*` (instances, their configuration profiles, interfaces
 * and addresses) and the types catalogue `/compute/types*`, the status machine on the clock, and
 * the control API's seeding. Other services read the instances (subnets, VPC IPs, VLANs,
 * addresses, firewall devices, image captures).
 */
import { defineService } from "../../core/service";
import { computesControl } from "./control";
import { computeTransitions } from "./machine";
import { computeRoutes } from "./routes";
import { COMPUTES, COMPUTE_ID, CONFIG_ID, DISK_ID, INTERFACE_ID } from "./store";

export const computesModule = defineService({
  name: "computes",
  routes: computeRoutes,
  slices: [COMPUTES],
  counters: [COMPUTE_ID, CONFIG_ID, INTERFACE_ID, DISK_ID],
  grants: { objects: ["compute"], global: ["add_computes"] },
  clock: computeTransitions,
  control: computesControl,
});
