/** A firewall for every instance in a region, one whose device and rules are added one by one, and an IPv6 range. */
import * as pulumi from "@pulumi/pulumi";
import * as compute from "../../provider";

export async function networkingExample(): Promise<Record<string, unknown>> {
  const region = new pulumi.Config("compute-examples").get("region") ?? "us-iad";
  const instances = [
    ...new Set(
      (await compute.getIps()).filter((ip) => ip.public && ip.region === region && ip.computeId !== null).map((ip) => ip.computeId!),
    ),
  ];
  if (instances.length < 2) throw new Error(`the networking example needs two compute instances with public addresses in ${region}`);
  const [first, second] = instances as [number, number];

  const web = new compute.Firewall("web", {
    label: "example-web",
    inboundPolicy: "DROP",
    outboundPolicy: "ACCEPT",
    inbound: [{ label: "https", action: "ACCEPT", protocol: "TCP", ports: "443", addresses: { ipv4: ["0.0.0.0/0"], ipv6: ["::/0"] } }],
    devices: { computes: [first] },
  });
  // A firewall whose rules are added one at a time: it gives no `inbound`/`outbound`, so the rules
  // of FirewallRule resources (from this stack or any other) are left alone.
  const admin = new compute.Firewall("admin", { label: "example-admin", inboundPolicy: "DROP", outboundPolicy: "ACCEPT" });
  new compute.FirewallRule("admin-ssh", {
    firewallId: admin.id,
    direction: "inbound",
    label: "ssh",
    action: "ACCEPT",
    protocol: "TCP",
    ports: "22",
    addresses: { ipv4: ["198.51.100.0/24"] },
  });
  new compute.FirewallRule("admin-ping", {
    firewallId: admin.id,
    direction: "inbound",
    label: "ping",
    action: "ACCEPT",
    protocol: "ICMP",
    addresses: { ipv4: ["198.51.100.0/24"] },
    position: "first",
  });
  new compute.FirewallDevice("admin-second", { firewallId: admin.id, entityId: second, entityType: "compute" });
  const range = new compute.Ipv6Range("v6", { prefixLength: 64, computeId: first });
  return { webFirewall: web.id, adminFirewall: admin.id, ipv6Range: range.range, pools: (await compute.getIpv6Pools()).length };
}
