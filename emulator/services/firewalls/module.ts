/** Cloud Firewalls with their devices and rules: `/networking/firewalls*`. Restricted users need grants per firewall. */
import { defineService } from "../../core/service";
import { firewallRoutes } from "./routes";
import { FIREWALLS, FIREWALL_DEVICE_ID, FIREWALL_ID } from "./store";

export const firewallsModule = defineService({
  name: "firewalls",
  routes: firewallRoutes,
  slices: [FIREWALLS],
  counters: [FIREWALL_ID, FIREWALL_DEVICE_ID],
  grants: { objects: ["firewall"] },
});
