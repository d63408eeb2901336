/**
 * Instances through their whole life: types, create with a public and a vpc interface and a
 * firewall, the status machine through boot, shutdown, reboot, resize and rebuild, configuration
 * profiles and their interfaces, the instance's addresses, delete. The client speaks of `linode`s;
 * the transport's renaming (`rename.ts`) sends it to `/compute/instances` and `/compute/types`.
 */
import { v4, type Linode, type LinodeStatus } from "../client";
import type { LifeContext } from "./context";
import * as S from "../shapes";

const {
  appendConfigInterface,
  createFirewall,
  createLinode,
  createLinodeConfig,
  createVPC,
  deleteFirewall,
  deleteLinode,
  deleteLinodeConfig,
  deleteLinodeConfigInterface,
  deleteVPC,
  getConfigInterface,
  getConfigInterfaces,
  getFirewallDevices,
  getLinode,
  getLinodeConfig,
  getLinodeConfigs,
  getLinodeIPs,
  getLinodes,
  getLinodeTypes,
  getSubnet,
  getType,
  linodeBoot,
  linodeReboot,
  linodeShutdown,
  rebuildLinode,
  resizeLinode,
  updateConfigInterface,
  updateLinode,
  updateLinodeConfig,
  updateLinodeConfigOrder,
} = v4;

export async function computesLife(ctx: LifeContext): Promise<void> {
  const types = ctx.checkPage("linode types", await getLinodeTypes(), S.LINODE_TYPE);
  expect(types.map((t) => t.id)).toContain("g6-standard-2");
  expect(ctx.check("linode type", await getType("g6-nanode-1"), S.LINODE_TYPE).memory).toBe(1024);

  const vpc = await createVPC({ label: "api-v4-compute-vpc", region: ctx.region, subnets: [{ label: "app", ipv4: "10.30.0.0/24" }] });
  const subnetId = vpc.subnets[0]!.id;
  const rules = { inbound: [], inbound_policy: "DROP" as const, outbound: [], outbound_policy: "ACCEPT" as const };
  const firewall = await createFirewall({ label: "api-v4-compute-fw", rules });

  const created = ctx.check(
    "linode",
    await createLinode({
      region: ctx.region,
      type: "g6-nanode-1",
      label: "api-v4-web-1",
      // The client's `linode/…` public image, renamed `public/…` on the wire.
      image: "linode/debian12",
      root_pass: "api-v4-Root-pass-1",
      booted: true,
      private_ip: true,
      tags: ["api-v4"],
      firewall_id: firewall.id,
      interfaces: [{ purpose: "public" }, { purpose: "vpc", subnet_id: subnetId, vpc_id: vpc.id, ipv4: { nat_1_1: "any" } }],
    }),
    S.LINODE,
  );
  expect(created).toMatchObject({ status: "provisioning", image: "linode/debian12", label: "api-v4-web-1" });
  const running = await statusIs(ctx, created.id, "running");
  expect(running.specs.memory).toBe(1024);
  expect(ctx.checkPage("linodes", await getLinodes({}, { label: "api-v4-web-1" }), S.LINODE).map((l) => l.id)).toEqual([created.id]);
  const updated = ctx.check(
    "linode updated",
    await updateLinode(created.id, { label: "api-v4-web-renamed", tags: ["api-v4", "web"] }),
    S.LINODE,
  );
  expect(updated.tags).toEqual(["api-v4", "web"]);
  expect((await getFirewallDevices(firewall.id)).data.map((d) => d.entity.id)).toEqual([created.id]);
  const subnet = await getSubnet(vpc.id, subnetId);
  expect(subnet.linodes.map((l) => l.id)).toEqual([created.id]);

  const configs = ctx.checkPage("linode configs", await getLinodeConfigs(created.id), S.CONFIG);
  expect(configs).toHaveLength(1);
  const main = configs[0]!;
  for (const i of main.interfaces ?? []) ctx.check("config.interfaces[]", i, S.INTERFACE);
  ctx.check("linode config", await getLinodeConfig(created.id, main.id), S.CONFIG);
  const renamed = ctx.check(
    "linode config updated",
    await updateLinodeConfig(created.id, main.id, { label: "api-v4-main", comments: "by api-v4" }),
    S.CONFIG,
  );
  expect(renamed).toMatchObject({ label: "api-v4-main", comments: "by api-v4" });

  const vlan = ctx.check(
    "interface",
    await appendConfigInterface(created.id, main.id, { purpose: "vlan", label: "api-v4-backend" }),
    S.INTERFACE,
  );
  const ifaces = await getConfigInterfaces(created.id, main.id);
  for (const i of ifaces) ctx.check("interfaces[]", i, S.INTERFACE);
  expect(ifaces.map((i) => i.purpose)).toEqual(["public", "vpc", "vlan"]);
  const vpcIface = ifaces[1]!;
  ctx.check("interface get", await getConfigInterface(created.id, main.id, vpcIface.id), S.INTERFACE);
  const moved = ctx.check(
    "interface updated",
    await updateConfigInterface(created.id, main.id, vpcIface.id, {
      ipv4: { vpc: "10.30.0.8", nat_1_1: null },
      ip_ranges: ["10.30.0.32/28"],
    }),
    S.INTERFACE,
  );
  expect(moved.ipv4?.vpc).toBe("10.30.0.8");
  await updateLinodeConfigOrder(created.id, main.id, { ids: [ifaces[0]!.id, vlan.id, vpcIface.id] });
  await deleteLinodeConfigInterface(created.id, main.id, vlan.id);

  const second = ctx.check(
    "linode config created",
    await createLinodeConfig(created.id, {
      label: "api-v4-second",
      devices: { sda: main.devices.sda },
      helpers: { devtmpfs_automount: true, distro: true, modules_dep: true, network: true, updatedb_disabled: true },
      initrd: null,
      root_device: "/dev/sda",
      interfaces: [{ purpose: "public" }],
    }),
    S.CONFIG,
  );
  await deleteLinodeConfig(created.id, second.id);

  const ips = ctx.check("linode ips", await getLinodeIPs(created.id), S.LINODE_IPS);
  for (const a of [...ips.ipv4.public, ...ips.ipv4.private]) ctx.check("linode ips.ipv4[]", a, S.IP_ADDRESS);
  for (const a of ips.ipv4.vpc) ctx.check("linode ips.ipv4.vpc[]", a, S.VPC_IP);
  expect(ips.ipv4.vpc.map((a) => a.address)).toEqual(["10.30.0.8", null]);
  if (ips.ipv6) for (const a of [ips.ipv6.slaac, ips.ipv6.link_local]) ctx.check("linode ips.ipv6", a, S.IP_ADDRESS);

  await linodeShutdown(created.id);
  await statusIs(ctx, created.id, "offline");
  await linodeBoot(created.id, main.id);
  await statusIs(ctx, created.id, "running");
  await linodeReboot(created.id);
  await statusIs(ctx, created.id, "running");
  await resizeLinode(created.id, { type: "g6-standard-2" });
  expect((await statusIs(ctx, created.id, "running")).type).toBe("g6-standard-2");
  const rebuilt = ctx.check(
    "linode rebuilt",
    await rebuildLinode(created.id, { image: "linode/ubuntu22.04", root_pass: "api-v4-Root-pass-2", booted: true }),
    S.LINODE,
  );
  expect(rebuilt.image).toBe("linode/ubuntu22.04");
  await statusIs(ctx, created.id, "running");

  await deleteLinode(created.id);
  await ctx.until(
    "the instance gone",
    () => getLinodes({}, { label: "api-v4-web-renamed" }),
    (page) => page.results === 0,
  );
  await deleteVPC(vpc.id);
  await deleteFirewall(firewall.id);
}

/** Reads the instance until it has `status` (the clock moves a minute between reads). */
function statusIs(ctx: LifeContext, id: number, status: LinodeStatus): Promise<Linode> {
  return ctx.until(
    `linode ${id} ${status}`,
    () => getLinode(id),
    (l) => l.status === status,
  );
}
