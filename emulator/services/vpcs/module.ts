/** VPCs and their subnets: `/vpcs*` and the VPC IP lists. Restricted users need `add_vpc` and grants per VPC. */
import { defineService } from "../../core/service";
import { vpcRoutes } from "./routes";
import { SUBNET_ID, VPCS, VPC_ID } from "./store";

export const vpcsModule = defineService({
  name: "vpcs",
  routes: vpcRoutes,
  slices: [VPCS],
  counters: [VPC_ID, SUBNET_ID],
  grants: { objects: ["vpc"], global: ["add_vpc"] },
});
