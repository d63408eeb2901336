/** Control operations for nodebalancers: seeding one (`control.seedNodeBalancer`, `POST /__emulator/seed/nodebalancers`). */
import { seeder, serviceControl } from "../../core/service";
import { NodeBalancerSeedRequest, seedNodeBalancer } from "./seed";

export const nodebalancersControl = serviceControl({
  api: (context) => ({
    /** Seeds a nodebalancer; answers it with its id. */
    seedNodeBalancer: seeder(context, NodeBalancerSeedRequest, seedNodeBalancer),
  }),
  routes: (api) => [{ method: "POST", path: "/seed/nodebalancers", handler: (r) => api.seedNodeBalancer(r.body()) }],
});
