/** VLANs: `GET /networking/vlans`, derived from the instances' `vlan` interfaces (no state of their own). */
import { defineService } from "../../core/service";
import { vlanRoutes } from "./routes";

export const vlansModule = defineService({ name: "vlans", routes: vlanRoutes });
