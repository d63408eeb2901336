/** A VPC with two subnets, and the addresses of the interfaces attached to it. */
import * as compute from "../../provider";

export async function vpcExample(): Promise<Record<string, unknown>> {
  const regions = await compute.getRegions({ capability: "VPCs" });
  const region = regions.find((r) => r.id === "us-iad")?.id ?? regions[0]!.id;
  const vpc = new compute.Vpc("net", { label: "example-net", region });
  const app = new compute.VpcSubnet("app", { vpcId: vpc.id, label: "app", ipv4: "10.10.0.0/24" });
  const jobs = new compute.VpcSubnet("jobs", { vpcId: vpc.id, label: "jobs", ipv4: "10.10.1.0/24" });
  return {
    vpcId: vpc.id,
    region,
    subnets: [app.ipv4, jobs.ipv4],
    addresses: vpc.id.apply(async (id) => (await compute.getVpcIps({ vpcId: id })).length),
  };
}
