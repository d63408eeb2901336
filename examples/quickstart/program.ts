/**
 * The quickstart stack: a VPC in the first VPC-capable region, with a subnet for the web tier and
 * one for the data tier. (Later slices add firewalls, DNS, databases, images and addresses.)
 */
import * as compute from "../../provider";

export interface QuickstartOutputs {
  region: string;
  vpcId: unknown;
  webSubnet: unknown;
  dataSubnet: unknown;
}

export async function quickstart(): Promise<QuickstartOutputs> {
  const regions = await compute.getRegions({ capability: "VPCs" });
  const region = regions[0]?.id;
  if (!region) throw new Error("no region offers VPCs");

  const vpc = new compute.Vpc("app-net", { label: "quickstart-net", region, description: "quickstart network" });
  const web = new compute.VpcSubnet("web", { vpcId: vpc.id, label: "web", ipv4: "10.0.1.0/24" });
  const data = new compute.VpcSubnet("data", { vpcId: vpc.id, label: "data", ipv4: "10.0.2.0/24" });

  return { region, vpcId: vpc.id, webSubnet: web.ipv4, dataSubnet: data.ipv4 };
}
