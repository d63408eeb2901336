/**
 * The compute rules that need no state, shared by the emulator (which adds the subnet's and the
 * addresses' checks) and the provider's preview (`Instance`'s `wireRules`): a configuration
 * profile's list of interfaces. Texts: `COMPUTE_REASONS` (docs/api-facts-computes.md, "Interfaces").
 */
import type { ErrorEntry } from "../../core/schema";

/** At most three interfaces per profile (`eth0`–`eth2`). */
export const MAX_INTERFACES = 3;

/** The reason texts these rules use (the sdk's `COMPUTE_REASONS`, passed in so this module stays below `computes.ts`). */
interface InterfaceReasons {
  tooManyInterfaces: string;
  onePublic: string;
  oneVpc: string;
  vlanPrimary: string;
  vlanLabelRequired: string;
  subnetRequired: string;
  onlyForPurpose(field: string, purpose: string): string;
}

/** One interface as these rules read it (the request's wire form). */
interface InterfaceShape {
  purpose?: unknown;
  primary?: unknown;
  label?: unknown;
  subnet_id?: unknown;
  ipam_address?: unknown;
  ipv4?: { vpc?: unknown; nat_1_1?: unknown } | null;
  ip_ranges?: unknown;
}

/** Whether a request names a value (an empty string, list or `null` names none). */
const names = (value: unknown): boolean =>
  value !== undefined && value !== null && value !== "" && !(Array.isArray(value) && value.length === 0);

/**
 * A profile's interfaces as a whole (`field`: `interfaces`; `existing`: the purposes of the
 * interfaces the profile keeps beside them): at most three, one `public` and one `vpc` at most;
 * each `vlan` named and never primary, each `vpc` with its subnet.
 */
export function interfaceListErrors(
  reasons: InterfaceReasons,
  requests: readonly InterfaceShape[],
  field: string,
  existing: readonly unknown[] = [],
): ErrorEntry[] {
  const errors: ErrorEntry[] = [];
  const all = [...existing, ...requests.map((r) => r.purpose)];
  if (all.length > MAX_INTERFACES) errors.push({ field, reason: reasons.tooManyInterfaces });
  if (all.filter((p) => p === "public").length > 1) errors.push({ field, reason: reasons.onePublic });
  if (all.filter((p) => p === "vpc").length > 1) errors.push({ field, reason: reasons.oneVpc });
  requests.forEach((request, i) => {
    const at = `${field}[${i}]`;
    if (request.purpose === "vlan") {
      if (request.primary === true) errors.push({ field: `${at}.primary`, reason: reasons.vlanPrimary });
      if (request.label === undefined || request.label === null || request.label === "") {
        errors.push({ field: `${at}.label`, reason: reasons.vlanLabelRequired });
      }
    }
    // Fields of one purpose on an interface of another.
    const notFor = (name: string, purpose: string) =>
      errors.push({ field: `${at}.${name}`, reason: reasons.onlyForPurpose(name, purpose) });
    if (request.purpose !== "vlan") {
      if (names(request.label)) notFor("label", "vlan");
      if (names(request.ipam_address)) notFor("ipam_address", "vlan");
    }
    if (request.purpose !== "vpc") {
      if (names(request.subnet_id)) notFor("subnet_id", "vpc");
      if (names(request.ipv4?.vpc)) notFor("ipv4.vpc", "vpc");
      if (names(request.ipv4?.nat_1_1)) notFor("ipv4.nat_1_1", "vpc");
      if (names(request.ip_ranges)) notFor("ip_ranges", "vpc");
    }
    if (request.purpose === "vpc" && (request.subnet_id === undefined || request.subnet_id === null)) {
      errors.push({ field: `${at}.subnet_id`, reason: reasons.subnetRequired });
    }
  });
  return errors;
}
