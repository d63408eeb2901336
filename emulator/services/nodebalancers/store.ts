/**
 * NodeBalancers exist only as seeded data for now (control API `POST /__emulator/seed/nodebalancers`,
 * `seed.ts`): firewall devices and support tickets reference them.
 */
import { type AccountState, accountSlice, idCounter } from "../../core/state";

export interface StoredNodeBalancer {
  id: number;
  label: string;
  region: string;
  created: string;
}

/** `accounts[id].nodebalancers`: the seeded nodebalancers. */
export const NODEBALANCERS = accountSlice("nodebalancers", (): StoredNodeBalancer[] => []);
export const NODEBALANCER_ID = idCounter("nodebalancer", 300_000);

/** The API path of a nodebalancer (firewall devices, ticket entities). */
export const nodebalancerUrl = (id: number) => `/v4/nodebalancers/${id}`;

export function findNodeBalancer(account: AccountState, id: number): StoredNodeBalancer | undefined {
  return NODEBALANCERS.of(account).find((n) => n.id === id);
}
