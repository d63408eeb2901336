/** Control operations for nodebalancers: seeding one (`control.seedNodeBalancer`, `POST /__emulator/seed/nodebalancers`). */
import { parseInput, serviceControl } from "../../core/service";
import { type NodeBalancerSeedInput, NodeBalancerSeedRequest, seedNodeBalancer } from "./seed";
import type { StoredNodeBalancer } from "./store";

export const nodebalancersControl = serviceControl({
  api: ({ runtime, account }) => ({
    /** Seeds a nodebalancer; answers it with its id. */
    seedNodeBalancer(input: NodeBalancerSeedInput): StoredNodeBalancer {
      const { account: id, ...seed } = parseInput(NodeBalancerSeedRequest, input);
      const record = seedNodeBalancer(runtime, account(id), seed);
      runtime.persist();
      return structuredClone(record);
    },
  }),
  routes: (api) => [{ method: "POST", path: "/seed/nodebalancers", handler: (r) => api.seedNodeBalancer(r.body()) }],
});
