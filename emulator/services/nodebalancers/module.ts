/** NodeBalancers, seeded through the control API only (no `/v4` routes): firewall devices and tickets reference them. */
import { defineService } from "../../core/service";
import { nodebalancersControl } from "./control";
import { NODEBALANCERS, NODEBALANCER_ID } from "./store";

export const nodebalancersModule = defineService({
  name: "nodebalancers",
  slices: [NODEBALANCERS],
  counters: [NODEBALANCER_ID],
  grants: { objects: ["nodebalancer"] },
  control: nodebalancersControl,
});
