/**
 * IP addresses, IPv6 pools and ranges: `/networking/ips*`, `/networking/ipv4/*`, `/networking/ipv6/*`.
 * Addresses live on the instances (`computes`); restricted users act through grants on those.
 */
import { defineService } from "../../core/service";
import { ipRoutes } from "./routes";
import { FORWARD_DNS_DELAY, IPV6_RANGES, RDNS } from "./store";
import { ipsControl } from "./control";

export const ipsModule = defineService({
  name: "ips",
  routes: ipRoutes,
  slices: [IPV6_RANGES, RDNS, FORWARD_DNS_DELAY],
  control: ipsControl,
});
