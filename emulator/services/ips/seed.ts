/**
 * The address part of a seeded compute instance (control API `POST /__emulator/seed/computes`):
 * its private IPv4 address, IPv6 SLAAC address and the "additional addresses" flag. Defaults keep
 * older seeds working: no private address, the plan's SLAAC address, allocation not enabled.
 */
import { z } from "zod";
import type { EmulatorRuntime } from "../../core/runtime";
import { ApiFailure, entry } from "../../core/errors";
import { canonicalIpv6, parseIpv4 } from "../../../sdk/core/net";
import { type StoredCompute, everyCompute } from "../computes/store";
import { defaultSlaac, isPrivateIpv4 } from "./address-plan";

/** The address fields of the instance seed's schema (`ComputeSeedRequest`, `../computes/seed.ts`). */
export const ADDRESS_SEED_FIELDS = {
  ipv4: z.array(z.string()).optional(),
  /** Private IPv4 addresses in 192.168.128.0/17 (at most one; default none). */
  ipv4_private: z.array(z.string()).optional(),
  /** The IPv6 SLAAC address (default: derived from the region and id; null: none). */
  ipv6: z.string().nullable().optional(),
  /** Enabled for additional public IPv4 addresses (default false). */
  additional_ipv4: z.boolean().optional(),
};
export const AddressSeed = z.object(ADDRESS_SEED_FIELDS);
export type AddressSeed = z.infer<typeof AddressSeed>;

/** Validates the seed's addresses against every instance already seeded and fills them in. */
export function seedAddresses(runtime: EmulatorRuntime, compute: StoredCompute, seed: AddressSeed): void {
  const others = everyCompute(runtime).filter((c) => c.id !== compute.id);
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
    if (privateTaken.has(address))
      throw new ApiFailure(400, [entry(`${address} is already in use in ${compute.region}`, `ipv4_private[${i}]`)]);
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
