/**
 * A realistic account for `pulumi-compute import`, made through the API (the sdk over HTTP) the
 * way a console user would have made it, plus instances with no image and the disk only the
 * emulator's control API can seed: 2 VPCs with subnets, 2 firewalls with rules and devices, an
 * instance deployed from an image behind a firewall with a VPC interface, 3 domains with 40
 * records written in the varied spellings people use, a MySQL and a PostgreSQL database, a
 * captured image, an IPv6 range and a reverse DNS name.
 */
import type { RunningEmulator } from "../../emulator";
import type { ComputeClient } from "../../sdk/client";
import type { RecordCreateRequest } from "../../sdk/resources/domains";

export interface SeededAccount {
  /** The instances seeded without an image (left out of the program), then app-1, deployed from one. */
  computeIds: number[];
  vpcIds: number[];
  domainIds: number[];
  records: number;
  mysqlId: number;
  imageId: string;
}

const WEB_1_IPV4 = "198.51.100.10";
/** app-1's address in the web subnet of app-net. */
export const APP_1_VPC_IPV4 = "10.0.1.11";

/** Records of example.com: relative and absolute names, `@`, upper case, single-label and dotted targets, odd TTLs. */
const EXAMPLE_COM: RecordCreateRequest[] = [
  { type: "A", name: "www", target: WEB_1_IPV4, ttl_sec: 300 },
  { type: "A", name: "WWW2.example.com.", target: "198.51.100.11", ttl_sec: 299 },
  { type: "A", name: "@", target: WEB_1_IPV4 },
  { type: "A", name: "api.example.com", target: "198.51.100.12", ttl_sec: 1000 },
  { type: "A", name: "mail", target: "198.51.100.20" },
  { type: "A", name: "Status", target: "198.51.100.21", ttl_sec: 30 },
  { type: "AAAA", name: "www", target: "2001:DB8::10" },
  { type: "AAAA", name: "", target: "2001:db8:0:0::10" },
  { type: "CNAME", name: "blog", target: "www" },
  { type: "CNAME", name: "docs.example.com.", target: "Pages.Example.org." },
  { type: "CNAME", name: "shop", target: "shops.example.net" },
  { type: "MX", name: "@", target: "mail", priority: 10 },
  { type: "MX", name: "", target: "Mail2.Example.com.", priority: 20, ttl_sec: 3600 },
  { type: "TXT", name: "@", target: "v=spf1 include:_spf.example.com ~all" },
  { type: "TXT", name: "_dmarc", target: 'v=DMARC1; p=none; rua="mailto:dmarc@example.com"' },
  { type: "TXT", name: "Selector1._domainkey", target: "k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDwIRP" },
  { type: "NS", name: "sub", target: "ns1.example.org" },
  { type: "NS", name: "sub.example.com.", target: "NS2.Example.org." },
  { type: "SRV", service: "_sip", protocol: "_tcp", name: "", target: "sip.example.com", priority: 10, weight: 5, port: 5060 },
  { type: "SRV", service: "xmpp-server", protocol: "tcp", name: "chat", target: "xmpp", priority: 5, weight: 0, port: 5269 },
  { type: "CAA", name: "@", tag: "issue", target: "letsencrypt.org" },
  { type: "CAA", name: "", tag: "iodef", target: "mailto:security@example.com" },
];

const SHOP_EXAMPLE_NET: RecordCreateRequest[] = [
  { type: "A", name: "@", target: "203.0.113.40" },
  { type: "A", name: "cdn", target: "203.0.113.41", ttl_sec: 120 },
  { type: "A", name: "CHECKOUT.shop.example.net.", target: "203.0.113.42" },
  { type: "AAAA", name: "cdn", target: "2001:0db8:0000:0000:0000:0000:0000:0041" },
  { type: "CNAME", name: "www", target: "shop.example.net." },
  { type: "MX", name: "", target: "mx1.mailhost.example", priority: 1 },
  { type: "MX", name: "@", target: "mx2.mailhost.example.", priority: 5 },
  { type: "TXT", name: "", target: "google-site-verification=abc123" },
  { type: "TXT", name: "_acme-challenge", target: "'quoted' text" },
  { type: "CAA", name: "@", tag: "issuewild", target: ";" },
];

const LAB_ORG: RecordCreateRequest[] = [
  { type: "A", name: "gw", target: "192.0.2.1" },
  { type: "A", name: "ns1", target: "192.0.2.53" },
  { type: "NS", name: "", target: "ns1" },
  { type: "CNAME", name: "git", target: "gw.lab.org." },
  { type: "TXT", name: "gw", target: "owner=ops" },
  { type: "SRV", service: "ldap", protocol: "udp", name: "dir", target: "gw", priority: 0, weight: 100, port: 389 },
  { type: "AAAA", name: "gw", target: "2001:DB8:1::1" },
  { type: "PTR", name: "1", target: "gw.lab.org" },
];

export async function seedImportAccount(emulator: RunningEmulator, client: ComputeClient): Promise<SeededAccount> {
  const web1 = emulator.control.seedCompute({
    label: "web-1",
    region: "us-iad",
    ipv4: [WEB_1_IPV4],
    disks: [{ label: "Ubuntu 24.04 Disk", size: 25088 }],
  });
  const web2 = emulator.control.seedCompute({ label: "web-2", region: "us-iad", ipv4: ["198.51.100.11"] });
  const db1 = emulator.control.seedCompute({ label: "db-1", region: "us-ord", ipv4: ["198.51.100.30"] });

  const app = await client.vpcs.create({ label: "app-net", region: "us-iad", description: "Application tier" });
  const web = await client.vpcs.subnets.create(app.id, { label: "web", ipv4: "10.0.1.0/24" });
  await client.vpcs.subnets.create(app.id, { label: "db", ipv4: "10.0.2.0/24" });
  const ops = await client.vpcs.create({ label: "Ops-Net-2", region: "us-ord" });
  await client.vpcs.subnets.create(ops.id, { label: "mgmt", ipv4: "172.16.0.0/16" });

  const fw = client.networking.firewalls;
  const webFw = await fw.create({
    label: "web-fw",
    tags: ["prod", "web"],
    rules: {
      inbound_policy: "DROP",
      outbound_policy: "ACCEPT",
      inbound: [
        { action: "ACCEPT", protocol: "TCP", ports: "22", addresses: { ipv4: ["192.0.2.0/24"] }, label: "ssh-office" },
        { action: "ACCEPT", protocol: "TCP", ports: "80,443", addresses: { ipv4: ["0.0.0.0/0"], ipv6: ["::/0"] }, label: "web" },
        { action: "ACCEPT", protocol: "ICMP", addresses: { ipv4: ["0.0.0.0/0"] } },
      ],
      outbound: [
        { action: "DROP", protocol: "TCP", ports: "25", addresses: { ipv4: ["0.0.0.0/0"] }, label: "no-smtp", description: "spam" },
      ],
    },
    devices: { computes: [web1.id, web2.id] },
  });
  const internal = await fw.create({
    label: "db_fw.internal",
    rules: {
      inbound_policy: "DROP",
      outbound_policy: "DROP",
      inbound: [{ action: "ACCEPT", protocol: "TCP", ports: "3306, 5432", addresses: { ipv4: ["10.0.0.0/8"] } }],
    },
  });
  await fw.devices.create(internal.id, { id: db1.id, type: "compute" });

  // An instance deployed from an image in the console: behind web-fw, in the web subnet at an address picked there.
  const app1 = await client.computes.instances.create({
    label: "app-1",
    region: "us-iad",
    type: "g6-nanode-1",
    image: "public/debian12",
    root_pass: "console-only-root-password",
    tags: ["prod", "app"],
    firewall_id: webFw.id,
    interfaces: [{ purpose: "public" }, { purpose: "vpc", subnet_id: web.id, ipv4: { vpc: APP_1_VPC_IPV4 } }],
  });
  await fw.update(internal.id, { status: "disabled" });

  const domainIds: number[] = [];
  let records = 0;
  const zones: Array<[Parameters<ComputeClient["domains"]["create"]>[0], RecordCreateRequest[]]> = [
    [{ domain: "example.com", type: "master", soa_email: "hostmaster@example.com", tags: ["prod"], ttl_sec: 3600 }, EXAMPLE_COM],
    [
      { domain: "Shop.Example.net", type: "master", soa_email: "admin@example.net", description: "Storefront", refresh_sec: 7000 },
      SHOP_EXAMPLE_NET,
    ],
    [{ domain: "lab.org", type: "master", soa_email: "ops@lab.org", status: "disabled", axfr_ips: ["192.0.2.53"], group: "lab" }, LAB_ORG],
  ];
  for (const [body, zoneRecords] of zones) {
    const domain = await client.domains.create(body);
    domainIds.push(domain.id);
    for (const record of zoneRecords) await client.domains.records.create(domain.id, record);
    records += zoneRecords.length;
  }

  // The forward record exists (www.example.com → web-1), so the API accepts the reverse name.
  await client.networking.ips.update(WEB_1_IPV4, { rdns: "www.example.com" });
  await client.networking.ipv6.ranges.create({ prefix_length: 64, compute_id: web1.id });

  const mysql = await client.databases.mysql.create({
    label: "app-db",
    region: "us-iad",
    type: "g6-nanode-1",
    engine: "mysql/8.0.30",
    allow_list: ["203.0.113.1", "10.0.1.0/24"],
  });
  const pg = await client.databases.postgresql.create({
    label: "reports-db",
    region: "us-ord",
    type: "g6-standard-1",
    engine: "postgresql/14.6",
    cluster_size: 3,
  });
  const image = await client.images.create({
    disk_id: web1.disks![0]!.id,
    label: "golden-web",
    description: "Ubuntu with nginx",
    cloud_init: true,
  });

  const forever = { until: ["active"], timeoutMs: 600_000 };
  await Promise.all([
    client.databases.mysql.waitForStatus(mysql.id, forever),
    client.databases.postgresql.waitForStatus(pg.id, forever),
    client.images.waitForStatus(image.id, "available", { intervalMs: 200 }),
    client.computes.instances.waitForStatus(app1.id, ["running"], { intervalMs: 200 }),
  ]);
  // A maintenance window set in the console once the database was up.
  await client.databases.mysql.update(mysql.id, { updates: { frequency: "weekly", duration: 3, hour_of_day: 2, day_of_week: 6 } });
  await client.databases.mysql.waitForStatus(mysql.id, forever);

  return {
    computeIds: [web1.id, web2.id, db1.id, app1.id],
    vpcIds: [app.id, ops.id],
    domainIds,
    records,
    mysqlId: mysql.id,
    imageId: image.id,
  };
}
