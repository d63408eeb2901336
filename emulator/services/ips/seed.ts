/**
 * The address part of a seeded compute instance (control API `POST /__emulator/seed/computes`):
 * its private IPv4 address, IPv6 SLAAC address and the "additional addresses" flag. Defaults keep
 * older seeds working: no private address, the plan's SLAAC address, allocation not enabled.
 */
import type { EmulatorState } from "../../core/state";
import { ApiFailure, entry } from "../../core/errors";
import { canonicalIpv6, parseIpv4 } from "../../../sdk/core/net";
import type { StoredCompute } from "../computes/store";
import { defaultSlaac, isPrivateIpv4 } from "./address-plan";

/** Seed fields this module reads (declared on `ComputeSeed`). */
export interface AddressSeed {
  ipv4?: string[];
  ipv4_private?: string[];
  ipv6?: string | null;
  additional_ipv4?: boolean;
}

function allComputes(state: EmulatorState): StoredCompute[] {
  return Object.values(state.accounts).flatMap((a) => a.computes);
}

/** Validates the seed's addresses against every instance already seeded and fills them in. */
export function seedAddresses(state: EmulatorState, compute: StoredCompute, seed: AddressSeed): void {
  const others = allComputes(state).filter((c) => c.id !== compute.id);
  const publicTaken = new Set(others.flatMap((c) => c.ipv4));
  (seed.ipv4 ?? []).forEach((address, i) => {
    if (parseIpv4(address) === undefined || isPrivateIpv4(address)) {
      throw new ApiFailure(400, [entry(`${address} is not a public IPv4 address`, `ipv4[${i}]`)]);
    }
    if (publicTaken.has(address)) throw new ApiFailure(400, [entry(`${address} is already in use`, `ipv4[${i}]`)]);
  });

  const privates = seed.ipv4_private ?? [];
  if (privates.length > 1) throw new ApiFailure(400, [entry("an instance has at most one private IPv4 address", "ipv4_private")]);
  const privateTaken = new Set(others.filter((c) => c.region === compute.region).flatMap((c) => c.ipv4_private ?? []));
  privates.forEach((address, i) => {
    if (!isPrivateIpv4(address)) throw new ApiFailure(400, [entry(`${address} is not in 192.168.128.0/17`, `ipv4_private[${i}]`)]);
    if (privateTaken.has(address)) throw new ApiFailure(400, [entry(`${address} is already in use in ${compute.region}`, `ipv4_private[${i}]`)]);
  });

  let slaac: string | null;
  if (seed.ipv6 === undefined) {
    slaac = defaultSlaac(compute.region, compute.id);
  } else if (seed.ipv6 === null) {
    slaac = null;
  } else {
    const canonical = canonicalIpv6(seed.ipv6);
    if (!canonical) throw new ApiFailure(400, [entry(`${seed.ipv6} is not an IPv6 address`, "ipv6")]);
    slaac = canonical;
  }
  if (slaac !== null && others.some((c) => c.ipv6 === slaac)) throw new ApiFailure(400, [entry(`${slaac} is already in use`, "ipv6")]);

  compute.ipv4_private = [...privates];
  compute.ipv6 = slaac;
  compute.additional_ipv4 = seed.additional_ipv4 ?? false;
  compute.shared_ips = [];
}
