/**
 * Configuration profile interfaces from a request (instance create, profile create and update,
 * interface add): every rule checked at once, with the field each refusal names, then the stored
 * interfaces with their VPC addresses placed (`ipv4.vpc` as given, else the subnet's next free
 * address), `nat_1_1: "any"` mapped to the instance's first public address. Rules and texts:
 * docs/api-facts-computes.md, "Interfaces".
 */
import { formatIpv4, ipv4RangeWithin, parseIpv4, parseIpv4Cidr } from "../../../sdk/core/net";
import type { ErrorEntry } from "../../../sdk/core/schema";
import { ApiFailure, entry } from "../../core/errors";
import type { EmulatorRuntime } from "../../core/runtime";
import type { AccountState } from "../../core/state";
import { findSubnetOfAccount } from "../vpcs/store";
import { assignableRange, usedAddresses } from "../vpcs/subnet-addresses";
import { COMPUTE_REASONS, configInterfaceErrors, type ConfigInterfaceRequest } from "../../../sdk/resources/computes";
import { INTERFACE_ID, type StoredCompute, type StoredInterface } from "./store";

/**
 * Checks a profile's whole list of interfaces and builds them. `field` prefixes each refusal
 * (`interfaces`); `replacing` are the profile's current interfaces, whose addresses are free to
 * take again. Throws one 400 with every refusal.
 */
export function buildInterfaces(
  runtime: EmulatorRuntime,
  account: AccountState,
  compute: Pick<StoredCompute, "region" | "ipv4">,
  requests: readonly ConfigInterfaceRequest[],
  field: string,
  replacing: readonly StoredInterface[] = [],
  existing: readonly StoredInterface[] = [],
): StoredInterface[] {
  // The rules that need no state are the sdk's (the provider's preview runs them too).
  const errors: ErrorEntry[] = configInterfaceErrors(
    requests,
    field,
    existing.map((i) => i.purpose),
  );
  const freed = new Set(replacing.map((i) => i.ipv4?.vpc).filter((a): a is string => !!a));
  const reserved = new Set<string>();
  const built: StoredInterface[] = [];
  requests.forEach((request, i) => {
    const at = `${field}[${i}]`;
    const iface = checkOne(account, compute, request, at, errors, freed, reserved);
    if (iface) built.push({ ...iface, id: 0 });
  });
  if (errors.length > 0) throw new ApiFailure(400, errors);
  return built.map((iface) => ({ ...iface, id: runtime.nextId(INTERFACE_ID) }));
}

function checkOne(
  account: AccountState,
  compute: Pick<StoredCompute, "region" | "ipv4">,
  request: ConfigInterfaceRequest,
  at: string,
  errors: ErrorEntry[],
  freed: ReadonlySet<string>,
  reserved: Set<string>,
): Omit<StoredInterface, "id"> | undefined {
  const before = errors.length;
  const base: Omit<StoredInterface, "id"> = {
    purpose: request.purpose,
    label: null,
    subnet_id: null,
    vpc_id: null,
    ipv4: null,
    ip_ranges: [],
    active: false,
    primary: request.primary ?? false,
    ipam_address: null,
  };
  // Fields of one purpose on an interface of another: refused by `configInterfaceErrors`.
  if (request.purpose === "public") return errors.length > before ? undefined : base;
  if (request.purpose === "vlan") {
    const label = request.label ?? ""; // an empty one is refused by configInterfaceErrors
    if (label.length > 64) errors.push(entry(COMPUTE_REASONS.vlanLabelLength, `${at}.label`));
    if (request.ipam_address && !parseIpv4Cidr(request.ipam_address)) {
      errors.push(entry("Must be a valid IPv4 range, e.g. 192.0.2.0/24.", `${at}.ipam_address`));
    }
    return errors.length > before ? undefined : { ...base, label, ipam_address: request.ipam_address ?? null };
  }
  // vpc
  if (request.subnet_id == null) return undefined; // refused by configInterfaceErrors
  const placed = findSubnetOfAccount(account, request.subnet_id);
  if (!placed) {
    errors.push(entry(COMPUTE_REASONS.subnetInvalid, `${at}.subnet_id`));
    return undefined;
  }
  if (placed.vpc.region !== compute.region) {
    errors.push(entry(COMPUTE_REASONS.subnetRegion, `${at}.subnet_id`));
    return undefined;
  }
  const used = new Set([...usedAddresses(account, placed.subnet.id)].filter((a) => !freed.has(a)));
  const { first, last } = assignableRange(placed.subnet);
  let address = request.ipv4?.vpc ?? undefined;
  if (address === undefined) {
    for (let n = first; n <= last && address === undefined; n++) {
      const candidate = formatIpv4(n);
      if (!used.has(candidate) && !reserved.has(candidate)) address = candidate;
    }
    if (address === undefined) errors.push(entry(COMPUTE_REASONS.subnetFull, `${at}.subnet_id`));
  } else {
    const value = parseIpv4(address);
    if (value === undefined || value < first || value > last) errors.push(entry(COMPUTE_REASONS.vpcAddressInvalid, `${at}.ipv4.vpc`));
    else if (used.has(address) || reserved.has(address)) errors.push(entry(COMPUTE_REASONS.vpcAddressTaken, `${at}.ipv4.vpc`));
  }
  const subnetRange = parseIpv4Cidr(placed.subnet.ipv4)!;
  (request.ip_ranges ?? []).forEach((text, r) => {
    const range = parseIpv4Cidr(text);
    if (!range || !range.canonical || !ipv4RangeWithin(range, subnetRange)) {
      errors.push(entry(COMPUTE_REASONS.ipRangeInvalid, `${at}.ip_ranges[${r}]`));
    }
  });
  const nat = request.ipv4?.nat_1_1 ?? null;
  let natAddress: string | null = null;
  if (nat === "any") natAddress = compute.ipv4[0] ?? null;
  else if (nat !== null && nat !== "") {
    if (!compute.ipv4.includes(nat)) errors.push(entry(COMPUTE_REASONS.natInvalid, `${at}.ipv4.nat_1_1`));
    natAddress = nat;
  }
  if (errors.length > before || address === undefined) return undefined;
  reserved.add(address);
  return {
    ...base,
    subnet_id: placed.subnet.id,
    vpc_id: placed.vpc.id,
    ipv4: { vpc: address, nat_1_1: natAddress },
    ip_ranges: [...(request.ip_ranges ?? [])],
  };
}
