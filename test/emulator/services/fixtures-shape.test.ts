/**
 * Replays the kind of call behind every recorded fixture of the emulated areas (regions, region
 * availability, VPCs, subnets, VPC IPs, events, and their recorded errors) against the emulator
 * and compares the answer's shape with the recording: the same keys, recursively through nested
 * objects and the first item of arrays. Recorded error bodies must match exactly.
 */
import * as fs from "node:fs";
import { startTestEmulator, vpcBody, type ApiResponse, type TestEmulator } from "../helpers";
import { FIXTURES, type Fixture, expectMatchesRecording, load, shapeDifferences } from "../../support/fixtures";


let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.control.reset());

async function ok(r: Promise<ApiResponse>): Promise<any> {
  const response = await r;
  expect(response.status).toBe(200);
  return response.body;
}

/** A VPC with one subnet and one instance attached to it (for non-empty `computes` and VPC IPs). */
async function vpcWithInstance(region = "us-iad") {
  const vpc = await ok(emu.post("/vpcs", vpcBody("shape-vpc", { region, subnets: [{ label: "shape-subnet", ipv4: "192.168.0.0/25" }] })));
  emu.control.seedCompute({
    label: "shape-compute",
    region,
    configs: [{ interfaces: [{ purpose: "vpc", subnet_id: vpc.subnets[0].id, ipv4: { nat_1_1: "any" } }] }],
  });
  return vpc;
}

/** How to obtain the emulator's counterpart of each fixture. */
const REPLAYS: Record<string, (f: Fixture) => Promise<ApiResponse>> = {
  "region.list.json": () => emu.get("/regions"),
  "region_availability.list.json": () => emu.get("/regions/availability"),
  "region_availability.list.page3.json": () => emu.get("/regions/availability", { query: { page: 3 } }),
  "vpc.create.json": (f) => emu.post("/vpcs", f.request),
  "vpc.create.no_subnets.json": (f) => emu.post("/vpcs", f.request),
  "vpc.get.json": async () => emu.get(`/vpcs/${(await ok(emu.post("/vpcs", vpcBody("v")))).id}`),
  "vpc.list.json": async () => (await ok(emu.post("/vpcs", vpcBody("v"))), emu.get("/vpcs")),
  "vpc.update.json": async (f) => emu.put(`/vpcs/${(await ok(emu.post("/vpcs", vpcBody("v")))).id}`, f.request),
  "vpc.delete.json": async () => emu.del(`/vpcs/${(await ok(emu.post("/vpcs", vpcBody("v")))).id}`),
  "subnet.get.json": async () => {
    const vpc = await vpcWithInstance();
    return emu.get(`/vpcs/${vpc.id}/subnets/${vpc.subnets[0].id}`);
  },
  "subnet.list.json": async () => emu.get(`/vpcs/${(await ok(emu.post("/vpcs", vpcBody("v", { subnets: [{ label: "s", ipv4: "10.0.0.0/24" }] })))).id}/subnets`),
  "subnet.update.json": async (f) => {
    const vpc = await ok(emu.post("/vpcs", vpcBody("v", { subnets: [{ label: "s", ipv4: "192.168.0.0/25" }] })));
    return emu.put(`/vpcs/${vpc.id}/subnets/${vpc.subnets[0].id}`, f.request);
  },
  "vpc_ip.list.json": async () => (await vpcWithInstance(), emu.get("/vpcs/ips", { query: { page: 1 } })),
  "vpc_ip.list_by_vpc.json": async () => emu.get(`/vpcs/${(await vpcWithInstance()).id}/ips`, { query: { page: 1 } }),
  "event.get.json": async () => {
    await ok(emu.post("/vpcs", vpcBody("v")));
    const [event] = (await ok(emu.get("/account/events"))).data;
    return emu.get(`/account/events/${event.id}`);
  },
  "event.list.json": async () => (await ok(emu.post("/vpcs", vpcBody("v"))), emu.get("/account/events")),
  "event.list.empty.json": () => emu.get("/account/events", { query: { page: 1 } }),
  "event.list.database_create.notification.json": async () => (await ok(emu.post("/vpcs", vpcBody("v"))), emu.get("/account/events", { query: { page: 1 } })),
  "event.list.database_create.finished.json": async () => (await ok(emu.post("/vpcs", vpcBody("v"))), emu.get("/account/events", { query: { page: 1 } })),
  "event.list.database_update.notification.json": async () => (await ok(emu.post("/vpcs", vpcBody("v"))), emu.get("/account/events", { query: { page: 1 } })),
  "event.list.database_update.finished.json": async () => (await ok(emu.post("/vpcs", vpcBody("v"))), emu.get("/account/events", { query: { page: 1 } })),
  "error.400.vpc_create_label.json": (f) => emu.post("/vpcs", f.request),
  "error.400.vpc_update_label.json": async (f) => emu.put(`/vpcs/${(await ok(emu.post("/vpcs", vpcBody("v")))).id}`, f.request),
  "error.400.subnet_create_label.json": async (f) => emu.post(`/vpcs/${(await ok(emu.post("/vpcs", vpcBody("v")))).id}/subnets`, f.request),
  "error.400.subnet_update_label.json": async (f) => {
    const vpc = await ok(emu.post("/vpcs", vpcBody("v", { subnets: [{ label: "s", ipv4: "10.0.0.0/24" }] })));
    return emu.put(`/vpcs/${vpc.id}/subnets/${vpc.subnets[0].id}`, f.request);
  },
  // Recorded on other endpoints; the envelope and text are what the emulator must reproduce.
  "error.400.bad_filter.json": () => emu.get("/vpcs", { headers: { "X-Filter": '{"foo": "bar"}' } }),
  "error.401.invalid_token.json": () => emu.get("/vpcs", { token: "REDACTED" }),
  "error.404.ip.json": () => emu.get("/vpcs/404"),
  "error.429.too_many_requests.json": () => {
    emu.control.addFault({ pathPattern: "/v4/vpcs*", kind: "429" });
    return emu.del("/vpcs/1");
  },
};

/** Fixture files of the emulated areas; every one of them must have a replay. */
const AREA = /^(region|region_availability|vpc|subnet|vpc_ip|event)\./;
const inArea = fs.readdirSync(FIXTURES).filter((name) => AREA.test(name));

test("every fixture of the emulated areas has a replay", () => {
  expect(inArea.length).toBeGreaterThanOrEqual(20);
  expect(inArea.filter((name) => !(name in REPLAYS))).toEqual([]);
});

test.each(Object.keys(REPLAYS))("%s", async (name) => {
  const fixture = load(name);
  expectMatchesRecording(await REPLAYS[name]!(fixture), fixture);
});

test("the shape comparison itself notices missing, extra and nested keys", () => {
  expect(shapeDifferences({ a: 1, b: { c: 1 } }, { a: 2, b: { c: 2 } })).toEqual([]);
  expect(shapeDifferences({ a: 1 }, { a: 1, b: 2 })).toEqual(["$.b: missing"]);
  expect(shapeDifferences({ a: [{ x: 1, y: 2 }] }, { a: [{ x: 1 }] })).toEqual(["$.a[0].y: not in the recording"]);
  expect(shapeDifferences({ a: { b: 1 } }, { a: { c: 1 } })).toEqual(["$.a.c: missing", "$.a.b: not in the recording"]);
});
