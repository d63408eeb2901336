/**
 * The VPC, subnet and VPC IP recordings replayed, with the recorded request bodies, and the recorded
 * refusals of VPC and subnet labels (exact error bodies).
 */
import { ok, vpcBody, type TestEmulator } from "../../helpers";
import { replayModule } from "../../replay";

/** A VPC with one subnet and one instance attached to it (for non-empty `computes` and VPC IPs). */
async function vpcWithInstance(emu: TestEmulator, region = "us-iad") {
  const vpc = await ok(emu.post("/vpcs", vpcBody("shape-vpc", { region, subnets: [{ label: "shape-subnet", ipv4: "192.168.0.0/25" }] })));
  emu.control.seedCompute({
    label: "shape-compute",
    region,
    configs: [{ interfaces: [{ purpose: "vpc", subnet_id: vpc.subnets[0].id, ipv4: { nat_1_1: "any" } }] }],
  });
  return vpc;
}

export const vpcReplays = replayModule({
  name: "vpcs",
  replays: (emu) => {
    const vpc = () => ok(emu.post("/vpcs", vpcBody("v")));
    const withSubnet = (ipv4: string) => ok(emu.post("/vpcs", vpcBody("v", { subnets: [{ label: "s", ipv4 }] })));
    return {
      "vpc.create.json": (f) => emu.post("/vpcs", f.request),
      "vpc.create.no_subnets.json": (f) => emu.post("/vpcs", f.request),
      "vpc.get.json": async () => emu.get(`/vpcs/${(await vpc()).id}`),
      "vpc.list.json": async () => (await vpc(), emu.get("/vpcs")),
      "vpc.update.json": async (f) => emu.put(`/vpcs/${(await vpc()).id}`, f.request),
      "vpc.delete.json": async () => emu.del(`/vpcs/${(await vpc()).id}`),
      "subnet.get.json": async () => {
        const created = await vpcWithInstance(emu);
        return emu.get(`/vpcs/${created.id}/subnets/${created.subnets[0].id}`);
      },
      "subnet.list.json": async () => emu.get(`/vpcs/${(await withSubnet("10.0.0.0/24")).id}/subnets`),
      "subnet.update.json": async (f) => {
        const created = await withSubnet("192.168.0.0/25");
        return emu.put(`/vpcs/${created.id}/subnets/${created.subnets[0].id}`, f.request);
      },
      "vpc_ip.list.json": async () => (await vpcWithInstance(emu), emu.get("/vpcs/ips", { query: { page: 1 } })),
      "vpc_ip.list_by_vpc.json": async () => emu.get(`/vpcs/${(await vpcWithInstance(emu)).id}/ips`, { query: { page: 1 } }),
      "error.400.vpc_create_label.json": (f) => emu.post("/vpcs", f.request),
      "error.400.vpc_update_label.json": async (f) => emu.put(`/vpcs/${(await vpc()).id}`, f.request),
      "error.400.subnet_create_label.json": async (f) => emu.post(`/vpcs/${(await vpc()).id}/subnets`, f.request),
      "error.400.subnet_update_label.json": async (f) => {
        const created = await withSubnet("10.0.0.0/24");
        return emu.put(`/vpcs/${created.id}/subnets/${created.subnets[0].id}`, f.request);
      },
    };
  },
});
