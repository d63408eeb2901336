/** Seeding a nodebalancer (control API `POST /__emulator/seed/nodebalancers`). */
import { z } from "zod";
import type { EmulatorRuntime } from "../../core/runtime";
import type { AccountState } from "../../core/state";
import { ApiFailure, entry } from "../../core/errors";
import { seedId } from "../../core/service";
import { findRegion } from "../regions/catalog";
import { NODEBALANCERS, NODEBALANCER_ID, type StoredNodeBalancer } from "./store";

/** `POST /__emulator/seed/nodebalancers`. */
export const NodeBalancerSeedRequest = z.strictObject({
  account: z.string().min(1).optional(),
  id: z.number().int().positive().optional(),
  label: z.string().min(1),
  region: z.string().min(1),
});
export type NodeBalancerSeedInput = z.input<typeof NodeBalancerSeedRequest>;
/** A validated seed, without the account it goes to. */
export type NodeBalancerSeed = Omit<z.infer<typeof NodeBalancerSeedRequest>, "account">;

export function seedNodeBalancer(runtime: EmulatorRuntime, account: AccountState, seed: NodeBalancerSeed): StoredNodeBalancer {
  if (!findRegion(seed.region)) throw new ApiFailure(400, [entry(`Unknown region ${seed.region}`, "region")]);
  const taken = (id: number) => Object.values(runtime.state.accounts).some((a) => NODEBALANCERS.of(a).some((n) => n.id === id));
  const record: StoredNodeBalancer = {
    id: seedId(runtime, NODEBALANCER_ID, seed.id, taken, (id) => new ApiFailure(400, [entry(`NodeBalancer ${id} already exists`, "id")])),
    label: seed.label,
    region: seed.region,
    created: runtime.clock.timestamp(),
  };
  NODEBALANCERS.of(account).push(record);
  return record;
}
