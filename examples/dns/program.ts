/** A zone with records of several types written the way people write them, and reverse DNS. */
import * as compute from "../../provider";

export async function dnsExample(): Promise<Record<string, unknown>> {
  const zone = "example-dns.test";
  const [address] = (await compute.getIps()).filter((ip) => ip.type === "ipv4" && ip.public).map((ip) => ip.address);
  const domain = new compute.Domain("zone", { domain: zone, type: "master", soaEmail: `admin@${zone}`, tags: ["example"] });
  const www = new compute.DomainRecord("www", {
    domainId: domain.id,
    type: "A",
    name: `www.${zone}.`,
    target: address ?? "203.0.113.10",
    ttlSec: 1000,
  });
  new compute.DomainRecord("alias", { domainId: domain.id, type: "CNAME", name: "alias", target: `www.${zone}.` });
  new compute.DomainRecord("caa", { domainId: domain.id, type: "CAA", name: "", tag: "issue", target: "letsencrypt.org" });
  new compute.DomainRecord("sip", {
    domainId: domain.id,
    type: "SRV",
    service: "sip",
    protocol: "tcp",
    target: `www.${zone}`,
    priority: 10,
    weight: 5,
    port: 5060,
  });
  const rdns = address ? new compute.ReverseDns("rdns", { address, rdns: `WWW.${zone}.` }, { dependsOn: [www] }) : undefined;
  return {
    domainId: domain.id,
    wwwRecord: www.fqdn,
    reverseDns: rdns?.rdns ?? null,
    zoneFileLines: domain.id.apply(async (id) => (await compute.getDomainZoneFile({ domainId: id })).zoneFile.length),
  };
}
