/** IP addresses (list, get, reverse DNS, allocate, assign, share), IPv6 pools and ranges. */
import { v4, type IPAddress } from "../client";
import type { LifeContext } from "./context";
import * as S from "../shapes";

const {
  allocateIp,
  assignAddresses,
  createDomain,
  createDomainRecord,
  createIPv6Range,
  deleteDomain,
  getIP,
  getIPs,
  getIPv6Pools,
  getIPv6RangeInfo,
  getIPv6Ranges,
  removeIPv6Range,
  shareAddresses,
  updateIP,
} = v4;

export async function addressesLife(ctx: LifeContext): Promise<void> {
  const { a, b } = ctx.computes;
  const publicA = a.ipv4[0]!;
  const all = ctx.checkPage("ips", await getIPs({ page_size: 500 }), S.IP_ADDRESS);
  expect(all.map((ip) => ip.address)).toEqual(expect.arrayContaining([publicA, b.ipv4[0]]));
  const ip = ctx.check("ip", await getIP(publicA), S.IP_ADDRESS);
  expect(ip.linode_id).toBe(a.id);

  // Reverse DNS needs a forward record of the account resolving the name to the address.
  const zone = await createDomain({ domain: "rdns.api-v4.example", type: "master", soa_email: "admin@api-v4.example" });
  await createDomainRecord(zone.id, { type: "A", name: "host", target: publicA, ttl_sec: 300 });
  expect(ctx.check("ip rdns", await updateIP(publicA, "host.rdns.api-v4.example"), S.IP_ADDRESS).rdns).toBe("host.rdns.api-v4.example");
  ctx.check("ip rdns reset", await updateIP(publicA), S.IP_ADDRESS);
  await deleteDomain(zone.id);

  // `allocateIp` takes `any`; typed here by the client's own answer type.
  const extra: IPAddress = ctx.check("ip allocated", await allocateIp({ type: "ipv4", public: true, linode_id: a.id }), S.IP_ADDRESS);
  expect(extra.linode_id).toBe(a.id);
  await assignAddresses({ region: ctx.region, assignments: [{ address: extra.address, linode_id: b.id }] });
  expect((await getIP(extra.address)).linode_id).toBe(b.id);
  await shareAddresses({ linode_id: a.id, ips: [extra.address] });

  ctx.checkPage("ipv6 pools", await getIPv6Pools(), S.IP_RANGE);
  await createIPv6Range({ prefix_length: 64, linode_id: a.id });
  const ranges = ctx.checkPage("ipv6 ranges", await getIPv6Ranges(), S.IP_RANGE);
  expect(ranges).toHaveLength(1);
  const range = ranges[0]!;
  const info = ctx.check("ipv6 range", await getIPv6RangeInfo(range.range), S.IP_RANGE_INFO);
  expect(info.linodes).toEqual([a.id]);
  await removeIPv6Range({ range: range.range });
  expect((await getIPv6Ranges()).data).toEqual([]);
}
