/** Regions, VPCs with subnets and their IP lists, firewalls with rules and devices. */
import { v4, type FirewallRules } from "../client";
import type { LifeContext } from "./context";
import * as S from "../shapes";

const {
  addFirewallDevice,
  createFirewall,
  createSubnet,
  createVPC,
  deleteFirewall,
  deleteFirewallDevice,
  deleteSubnet,
  deleteVPC,
  disableFirewall,
  enableFirewall,
  getFirewall,
  getFirewallDevice,
  getFirewallDevices,
  getFirewallRules,
  getFirewalls,
  getRegion,
  getRegionAvailabilities,
  getRegionAvailability,
  getRegions,
  getSubnet,
  getSubnets,
  getVPC,
  getVPCIPs,
  getVPCs,
  getVPCsIPs,
  modifySubnet,
  updateFirewall,
  updateFirewallRules,
  updateVPC,
} = v4;

export async function regionsLife(ctx: LifeContext): Promise<void> {
  const regions = ctx.checkPage("regions", await getRegions({ page_size: 500 }), S.REGION);
  expect(regions.map((r) => r.id)).toContain(ctx.region);
  const region = ctx.check("region", await getRegion(ctx.region), S.REGION);
  expect(region.capabilities).toContain("VPCs");
  ctx.checkPage("region availabilities", await getRegionAvailabilities(), S.REGION_AVAILABILITY);
  // The client declares the per-region answer an array (RegionAvailability[]).
  const one = await getRegionAvailability(ctx.region);
  expect(Array.isArray(one)).toBe(true);
  if (Array.isArray(one)) for (const a of one) ctx.check("region availability[]", a, S.REGION_AVAILABILITY);
}

export async function vpcsLife(ctx: LifeContext): Promise<void> {
  const vpc = ctx.check(
    "vpc",
    await createVPC({
      label: "api-v4-vpc",
      region: ctx.region,
      description: "made by @linode/api-v4",
      subnets: [{ label: "first", ipv4: "10.0.1.0/24" }],
    }),
    S.VPC_SHAPE,
  );
  for (const s of vpc.subnets) ctx.check("vpc.subnets[]", s, S.SUBNET);
  ctx.check("vpc updated", await updateVPC(vpc.id, { label: "api-v4-vpc-renamed", description: "renamed" }), S.VPC_SHAPE);
  expect(ctx.check("vpc get", await getVPC(vpc.id), S.VPC_SHAPE).label).toBe("api-v4-vpc-renamed");
  expect(ctx.checkPage("vpcs", await getVPCs(), S.VPC_SHAPE).map((v) => v.id)).toContain(vpc.id);

  const subnet = ctx.check("subnet", await createSubnet(vpc.id, { label: "second", ipv4: "10.0.2.0/24" }), S.SUBNET);
  ctx.check("subnet modified", await modifySubnet(vpc.id, subnet.id, { label: "second-renamed" }), S.SUBNET);
  expect(ctx.check("subnet get", await getSubnet(vpc.id, subnet.id), S.SUBNET).label).toBe("second-renamed");
  expect(ctx.checkPage("subnets", await getSubnets(vpc.id), S.SUBNET)).toHaveLength(2);

  // An instance with an interface in the subnet gives the VPC IP lists something to list.
  const member = ctx.emu.control.seedCompute({
    label: "api-v4-vpc-member",
    region: ctx.region,
    configs: [{ interfaces: [{ purpose: "vpc", subnet_id: subnet.id }] }],
  });
  const ips = ctx.checkPage("vpc ips", await getVPCIPs(vpc.id), S.VPC_IP);
  expect(ips.map((ip) => ip.linode_id)).toContain(member.id);
  expect(ctx.checkPage("all vpc ips", await getVPCsIPs(), S.VPC_IP).length).toBeGreaterThanOrEqual(ips.length);
  const seen = ctx.check("subnet with member", await getSubnet(vpc.id, subnet.id), S.SUBNET);
  expect(seen.linodes.map((l) => l.id)).toContain(member.id);

  const config = member.configs[0]!;
  ctx.emu.control.deleteInterface(member.id, config.id, config.interfaces[0]!.id);
  await deleteSubnet(vpc.id, subnet.id);
  await deleteVPC(vpc.id);
  expect((await getVPCs()).data.map((v) => v.id)).not.toContain(vpc.id);
}

export async function firewallsLife(ctx: LifeContext): Promise<void> {
  const { a, b } = ctx.computes;
  const firewall = ctx.check(
    "firewall",
    await createFirewall({
      label: "api-v4-fw",
      tags: ["contract"],
      rules: {
        inbound_policy: "DROP",
        outbound_policy: "ACCEPT",
        inbound: [{ action: "ACCEPT", protocol: "TCP", ports: "22", addresses: { ipv4: ["0.0.0.0/0"] }, label: "ssh" }],
        outbound: [],
      },
      devices: { linodes: [a.id] },
    }),
    S.FIREWALL,
  );
  ctx.check("firewall.rules", firewall.rules, S.FIREWALL_RECORD_RULES);
  ctx.check(
    "firewall updated",
    await updateFirewall(firewall.id, { label: "api-v4-fw-renamed", tags: ["contract", "renamed"] }),
    S.FIREWALL,
  );
  expect((await disableFirewall(firewall.id)).status).toBe("disabled");
  expect((await enableFirewall(firewall.id)).status).toBe("enabled");
  expect(ctx.check("firewall get", await getFirewall(firewall.id), S.FIREWALL).label).toBe("api-v4-fw-renamed");
  expect(ctx.checkPage("firewalls", await getFirewalls(), S.FIREWALL).map((f) => f.id)).toContain(firewall.id);

  // The client declares the rules answer a Page; the API answers the rules object itself.
  const current = ctx.check("firewall rules", (await getFirewallRules(firewall.id)) as unknown as FirewallRules, S.FIREWALL_RULES);
  // As Cloud Manager does: the rules read, changed and written back whole, `version` and
  // `fingerprint` included (the client's UpdateFirewallRules omits them, a spread keeps them).
  const updated = ctx.check(
    "firewall rules updated",
    await updateFirewallRules(firewall.id, {
      ...current,
      inbound: [
        ...(current.inbound ?? []),
        { action: "ACCEPT", protocol: "TCP", ports: "443", addresses: { ipv4: ["0.0.0.0/0"], ipv6: ["::/0"] }, label: "https" },
      ],
    }),
    S.FIREWALL_RULES,
  );
  expect(updated.inbound).toHaveLength(2);
  expect(updated.version).toBeGreaterThan(current.version);

  const devices = ctx.checkPage("firewall devices", await getFirewallDevices(firewall.id), S.FIREWALL_DEVICE);
  for (const d of devices) ctx.check("firewall devices[].entity", d.entity, S.DEVICE_ENTITY);
  expect(devices.map((d) => [d.entity.type, d.entity.id])).toEqual([["linode", a.id]]);
  const added = ctx.check("firewall device", await addFirewallDevice(firewall.id, { id: b.id, type: "linode" }), S.FIREWALL_DEVICE);
  expect(ctx.check("firewall device get", await getFirewallDevice(firewall.id, added.id), S.FIREWALL_DEVICE).entity.id).toBe(b.id);
  await deleteFirewallDevice(firewall.id, added.id);
  expect((await getFirewallDevices(firewall.id)).data).toHaveLength(1);
  await deleteFirewall(firewall.id);
  expect((await getFirewalls()).data.map((f) => f.id)).not.toContain(firewall.id);
}
