/** Seeding a nodebalancer (control API `POST /__emulator/seed/nodebalancers`). */
import type { EmulatorRuntime } from "../../core/runtime";
import type { AccountState, EmulatorState } from "../../core/state";
import { ApiFailure, entry } from "../../core/errors";
import { findRegion } from "../regions/catalog";
import type { StoredNodeBalancer } from "./store";

export interface NodeBalancerSeed {
  id?: number;
  label: string;
  region: string;
}

function idTaken(state: EmulatorState, id: number): boolean {
  return Object.values(state.accounts).some((a) => a.nodebalancers.some((n) => n.id === id));
}

export function seedNodeBalancer(runtime: EmulatorRuntime, account: AccountState, seed: NodeBalancerSeed): StoredNodeBalancer {
  if (!findRegion(seed.region)) throw new ApiFailure(400, [entry(`Unknown region ${seed.region}`, "region")]);
  if (seed.id !== undefined && idTaken(runtime.state, seed.id)) throw new ApiFailure(400, [entry(`NodeBalancer ${seed.id} already exists`, "id")]);
  let id = seed.id;
  while (id === undefined || (seed.id === undefined && idTaken(runtime.state, id))) id = runtime.nextId("nodebalancer");
  const record: StoredNodeBalancer = {
    id,
    label: seed.label,
    region: seed.region,
    created: runtime.clock.timestamp(),
  };
  account.nodebalancers.push(record);
  return record;
}
