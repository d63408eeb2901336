/** Changes to seeded instances that the control API makes (the API's own compute endpoints are not emulated). */
import type { AccountState } from "../../core/state";
import { findCompute } from "./store";

/** Removes one interface (frees its subnet address). False when any of the three ids is unknown. */
export function deleteInterface(account: AccountState, computeId: number, configId: number, interfaceId: number): boolean {
  const config = findCompute(account, computeId)?.configs.find((c) => c.id === configId);
  if (!config) return false;
  const before = config.interfaces.length;
  config.interfaces = config.interfaces.filter((i) => i.id !== interfaceId);
  return config.interfaces.length < before;
}

/** Starts or ends a live migration of a seeded instance. False when the instance is unknown. */
export function setMigrating(account: AccountState, computeId: number, migrating: boolean): boolean {
  const compute = findCompute(account, computeId);
  if (!compute) return false;
  compute.migrating = migrating;
  return true;
}
