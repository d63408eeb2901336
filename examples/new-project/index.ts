// A first program: a VPC with a subnet, and a DNS zone with one record.
import * as pulumi from "@pulumi/pulumi";
import * as compute from "pulumi-compute";

const config = new pulumi.Config();
const vpc = new compute.Vpc("net", { label: config.get("label") ?? "user-net", region: "us-iad" });
const subnet = new compute.VpcSubnet("app", { vpcId: vpc.id, label: "app", ipv4: "10.20.0.0/24" });
const zone = new compute.Domain("zone", { domain: "user.example", type: "master", soaEmail: "admin@user.example" });
new compute.DomainRecord("www", { domainId: zone.id, type: "A", name: "www", target: "203.0.113.7" });

export const vpcId = vpc.id;
export const subnetRange = subnet.ipv4;
