/**
 * NodeBalancers exist only as seeded data for now (control API `POST /__emulator/seed/nodebalancers`):
 * later services (firewall devices) reference them.
 */
import type { EmulatorRuntime } from "../../core/runtime";
import type { AccountState, EmulatorState } from "../../core/state";
import { ApiFailure, entry } from "../../core/errors";
import { findRegion } from "../regions/models";

export interface NodeBalancerRecord {
  id: number;
  label: string;
  region: string;
  created: string;
}

export interface NodeBalancerSeed {
  id?: number;
  label: string;
  region: string;
}

function idTaken(state: EmulatorState, id: number): boolean {
  return Object.values(state.accounts).some((a) => a.nodebalancers.some((n) => n.id === id));
}

export function seedNodeBalancer(runtime: EmulatorRuntime, account: AccountState, seed: NodeBalancerSeed): NodeBalancerRecord {
  if (!findRegion(seed.region)) throw new ApiFailure(400, [entry(`Unknown region ${seed.region}`, "region")]);
  if (seed.id !== undefined && idTaken(runtime.state, seed.id)) throw new ApiFailure(400, [entry(`NodeBalancer ${seed.id} already exists`, "id")]);
  let id = seed.id;
  while (id === undefined || (seed.id === undefined && idTaken(runtime.state, id))) id = runtime.nextId("nodebalancer");
  const record: NodeBalancerRecord = {
    id,
    label: seed.label,
    region: seed.region,
    created: runtime.clock.timestamp(),
  };
  account.nodebalancers.push(record);
  return record;
}

export function findNodeBalancer(account: AccountState, id: number): NodeBalancerRecord | undefined {
  return account.nodebalancers.find((n) => n.id === id);
}
