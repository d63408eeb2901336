/**
 * Addresses inside a subnet: its gateway (the first host address), the range interfaces may take
 * (after the gateway, before the broadcast address), and which of them the account's instances use.
 */
import { formatIpv4, ipv4RangeEnd, parseIpv4Cidr } from "../../../sdk/core/net";
import type { AccountState } from "../../core/state";
import { interfacesOnSubnet } from "../computes/store";
import type { StoredSubnet } from "./store";

/** The subnet's gateway: its first host address (`192.168.0.1` in `192.168.0.0/25`). */
export function subnetGateway(subnet: Pick<StoredSubnet, "ipv4">): string {
  return formatIpv4(parseIpv4Cidr(subnet.ipv4)!.network + 1);
}

/** Addresses an interface may take: after the gateway, before the broadcast address. */
export function assignableRange(subnet: StoredSubnet): { first: number; last: number } {
  const range = parseIpv4Cidr(subnet.ipv4)!;
  return { first: range.network + 2, last: ipv4RangeEnd(range) - 1 };
}

export function usedAddresses(account: AccountState, subnetId: number): Set<string> {
  return new Set(
    interfacesOnSubnet(account, subnetId)
      .map((p) => p.iface.ipv4?.vpc)
      .filter((a): a is string => !!a),
  );
}

/** The next free address of a subnet, lowest first; undefined when the subnet is full. */
export function nextFreeAddress(account: AccountState, subnet: StoredSubnet): string | undefined {
  const used = usedAddresses(account, subnet.id);
  const { first, last } = assignableRange(subnet);
  for (let n = first; n <= last; n++) {
    const address = formatIpv4(n);
    if (!used.has(address)) return address;
  }
  return undefined;
}
