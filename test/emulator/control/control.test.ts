/** The control API under /__emulator, over HTTP, and its in-process twin. */
import { defaultPublicIpv4 } from "../../../emulator/services/computes/seed";
import { isLoopback } from "../../../emulator/control/routes";
import { buildEmulator } from "../../../emulator";
import { call, startTestEmulator, vpcBody, type TestEmulator } from "../helpers";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.control.reset());

test("the URLs point at the API and the control prefix", () => {
  expect(emu.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v4$/);
  expect(emu.controlUrl).toBe(emu.url.replace(/\/v4$/, "/__emulator"));
});

test("POST /reset forgets objects but keeps the primary token", async () => {
  await emu.post("/vpcs", vpcBody("v"));
  const r = await emu.ctl("POST", "/reset");
  expect(r.status).toBe(200);
  expect(r.body).toEqual({});
  const list = await emu.get("/vpcs");
  expect(list.status).toBe(200);
  expect(list.body.results).toBe(0);
  expect((await emu.get("/account/events")).body.results).toBe(0);
});

test("POST /accounts creates an account with its own unrestricted token", async () => {
  const r = await emu.ctl("POST", "/accounts", {});
  expect(r.status).toBe(200);
  expect(r.body).toEqual({ account: expect.any(String), token: expect.stringMatching(/^[0-9a-f]{64}$/), username: expect.any(String) });
  const created = await emu.post("/vpcs", vpcBody("theirs"), { token: r.body.token });
  expect(created.status).toBe(200);
  expect((await emu.get("/vpcs")).body.results).toBe(0);
  expect((await emu.ctl("POST", "/accounts", { id: r.body.account })).status).toBe(400);
});

test("POST /tokens issues scoped and restricted tokens", async () => {
  const scoped = await emu.ctl("POST", "/tokens", { scopes: ["vpc:read_only"], label: "ci" });
  expect(scoped.body).toMatchObject({ scopes: ["vpc:read_only"], restricted: false, account: "primary" });
  expect((await emu.get("/vpcs", { token: scoped.body.token })).headers["x-oauth-scopes"]).toBe("vpc:read_only");
  const restricted = await emu.ctl("POST", "/tokens", { restricted: true, grants: { global: { add_vpc: true } } });
  expect(restricted.body).toMatchObject({ restricted: true, scopes: "*" });
  expect((await emu.post("/vpcs", vpcBody("r"), { token: restricted.body.token })).status).toBe(200);
  // The same restricted user can get a second token, and losing a grant applies to both.
  const again = await emu.ctl("POST", "/tokens", { username: restricted.body.username, restricted: true, grants: {} });
  expect(again.body.username).toBe(restricted.body.username);
  expect((await emu.post("/vpcs", vpcBody("r2"), { token: restricted.body.token })).status).toBe(403);
});

test("bad control input is 400 with the offending field", async () => {
  const cases: Array<[string, unknown, string]> = [
    ["/tokens", { account: "nope" }, "account"],
    ["/tokens", { scopes: ["everything"] }, "scopes[0]"],
    ["/tokens", { grants: { global: { add_vpc: true } } }, "grants"],
    ["/seed/computes", { label: "c", region: "xx-none" }, "region"],
    ["/seed/computes", { region: "es-mad" }, "label"],
    [
      "/seed/computes",
      { label: "c", region: "es-mad", configs: [{ interfaces: [{ purpose: "vpc" }] }] },
      "configs[0].interfaces[0].subnet_id",
    ],
    [
      "/seed/computes",
      { label: "c", region: "es-mad", configs: [{ interfaces: [{ purpose: "vpc", subnet_id: 1 }] }] },
      "configs[0].interfaces[0].subnet_id",
    ],
    ["/seed/nodebalancers", { label: "nb", region: "xx-none" }, "region"],
    ["/clock", { scale: -1 }, "scale"],
  ];
  for (const [path, body, field] of cases) {
    const r = await emu.ctl("POST", path, body);
    expect([path, r.status]).toEqual([path, 400]);
    expect(r.body.errors[0].field).toBe(field);
  }
});

describe("seeding instances", () => {
  async function subnet(region = "es-mad", ipv4 = "10.0.0.0/24") {
    const vpc = (await emu.post("/vpcs", vpcBody(`vpc-${region}`, { region, subnets: [{ label: "s", ipv4 }] }))).body;
    return { vpcId: vpc.id as number, subnetId: vpc.subnets[0].id as number };
  }

  test("POST /seed/computes assigns ids and the next free address after the gateway", async () => {
    const { vpcId, subnetId } = await subnet();
    const r = await emu.ctl("POST", "/seed/computes", {
      label: "web-1",
      region: "es-mad",
      configs: [
        {
          label: "boot",
          interfaces: [{ purpose: "public" }, { purpose: "vpc", subnet_id: subnetId, active: true }, { purpose: "vlan", label: "lan" }],
        },
      ],
    });
    expect(r.status).toBe(200);
    const [pub, vpcIface, vlan] = r.body.configs[0].interfaces;
    expect(r.body).toMatchObject({ id: expect.any(Number), label: "web-1", region: "es-mad", ipv4: [expect.any(String)] });
    expect(r.body.configs[0]).toMatchObject({ id: expect.any(Number), label: "boot" });
    expect(pub).toMatchObject({ purpose: "public", subnet_id: null, ipv4: null });
    expect(vpcIface).toMatchObject({
      purpose: "vpc",
      subnet_id: subnetId,
      vpc_id: vpcId,
      active: true,
      ipv4: { vpc: "10.0.0.2", nat_1_1: null },
    });
    expect(vlan).toMatchObject({ purpose: "vlan", label: "lan" });
    expect(new Set([pub.id, vpcIface.id, vlan.id]).size).toBe(3);
  });

  test("a seeded instance's public address is never the network or broadcast address of its /24", () => {
    // Ids at and around each multiple of 256 once landed on .0 and .255.
    const ids = [256, 511, 512, 65_536, 65_791, 49_708_338, ...Array.from({ length: 600 }, (_, i) => 1_000_000 + i)];
    const addresses = ids.map(defaultPublicIpv4);
    for (const address of addresses) expect(address).toMatch(/^172\.232\.(\d{1,3})\.([1-9]\d?|1\d\d|2[0-4]\d|25[0-4])$/);
    expect(new Set(addresses.slice(6)).size).toBe(600); // consecutive ids get distinct addresses
    expect(emu.control.seedCompute({ id: 256 * 3, label: "edge", region: "us-iad" }).ipv4).toEqual([defaultPublicIpv4(256 * 3)]);
  });

  test("explicit ids and addresses are kept; taken or foreign addresses are refused", async () => {
    const { subnetId } = await subnet();
    const seeded = emu.control.seedCompute({
      id: 123,
      label: "fixed",
      region: "es-mad",
      configs: [
        { id: 456, interfaces: [{ id: 789, purpose: "vpc", subnet_id: subnetId, ipv4: { vpc: "10.0.0.50", nat_1_1: "203.0.113.5" } }] },
      ],
    });
    expect(seeded.id).toBe(123);
    expect(seeded.configs[0]!.interfaces[0]).toMatchObject({ id: 789, ipv4: { vpc: "10.0.0.50", nat_1_1: "203.0.113.5" } });
    const field = "configs[0].interfaces[0].ipv4.vpc";
    for (const address of ["10.0.0.50", "10.0.0.1", "10.0.1.9", "10.0.0.255"]) {
      const r = await emu.ctl("POST", "/seed/computes", {
        label: "x",
        region: "es-mad",
        configs: [{ interfaces: [{ purpose: "vpc", subnet_id: subnetId, ipv4: { vpc: address } }] }],
      });
      expect([address, r.status, r.body.errors[0].field]).toEqual([address, 400, field]);
    }
    expect((await emu.ctl("POST", "/seed/computes", { id: 123, label: "dup", region: "es-mad" })).status).toBe(400);
  });

  test("an instance must be in its subnet's region", async () => {
    const { subnetId } = await subnet("us-iad");
    const r = await emu.ctl("POST", "/seed/computes", {
      label: "x",
      region: "es-mad",
      configs: [{ interfaces: [{ purpose: "vpc", subnet_id: subnetId }] }],
    });
    expect(r.status).toBe(400);
  });

  test("seeds go to the named account only", async () => {
    const other = emu.control.createAccount({ id: "b" });
    const theirs = (await emu.post("/vpcs", vpcBody("v", { subnets: [{ label: "s", ipv4: "10.0.0.0/24" }] }), { token: other.token })).body;
    // The primary account cannot attach to another account's subnet…
    expect(
      (
        await emu.ctl("POST", "/seed/computes", {
          label: "x",
          region: "es-mad",
          configs: [{ interfaces: [{ purpose: "vpc", subnet_id: theirs.subnets[0].id }] }],
        })
      ).status,
    ).toBe(400);
    // …but account b can.
    const ok = await emu.ctl("POST", "/seed/computes", {
      account: "b",
      label: "x",
      region: "es-mad",
      configs: [{ interfaces: [{ purpose: "vpc", subnet_id: theirs.subnets[0].id }] }],
    });
    expect(ok.status).toBe(200);
    expect((await emu.get("/vpcs/ips", { token: other.token })).body.results).toBe(1);
    expect((await emu.get("/vpcs/ips")).body.results).toBe(0);
  });

  test("DELETE an interface frees the subnet; unknown ids are 404", async () => {
    const { vpcId, subnetId } = await subnet();
    const c = (
      await emu.ctl("POST", "/seed/computes", {
        label: "x",
        region: "es-mad",
        configs: [{ interfaces: [{ purpose: "vpc", subnet_id: subnetId }] }],
      })
    ).body;
    const path = `/seed/computes/${c.id}/configs/${c.configs[0].id}/interfaces/${c.configs[0].interfaces[0].id}`;
    expect((await emu.ctl("DELETE", path)).status).toBe(200);
    expect((await emu.ctl("DELETE", path)).status).toBe(404);
    expect((await emu.del(`/vpcs/${vpcId}`)).status).toBe(200);
  });

  test("POST /seed/nodebalancers records a nodebalancer", async () => {
    const r = await emu.ctl("POST", "/seed/nodebalancers", { label: "lb", region: "us-iad" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: expect.any(Number), label: "lb", region: "us-iad" });
    expect(emu.control.dumpState().accounts["primary"]!.nodebalancers).toHaveLength(1);
  });
});

test("GET /state dumps the state; GET /routes lists the table", async () => {
  await emu.post("/vpcs", vpcBody("v"));
  const state = await emu.ctl("GET", "/state");
  expect(state.body.accounts.primary.vpcs[0].label).toBe("v");
  const routes = await emu.ctl("GET", "/routes");
  expect(routes.body.length).toBe(emu.control.routes().length);
  expect(routes.body.length).toBeGreaterThan(0);
  expect(routes.body.every((r: { path: string }) => r.path.startsWith("/v4/"))).toBe(true);
});

test("GET /memory reports the process's memory in bytes, the young and old generations apart", async () => {
  const r = await emu.ctl("GET", "/memory");
  expect(r.status).toBe(200);
  const fields = ["rss", "heapTotal", "heapUsed", "external", "arrayBuffers", "newSpace", "oldSpace"];
  expect(Object.keys(r.body).sort()).toEqual([...fields].sort());
  for (const field of fields) expect(r.body[field]).toEqual(expect.any(Number));
  expect(r.body.heapUsed).toBeGreaterThan(0);
  expect(r.body.heapUsed).toBeLessThanOrEqual(r.body.heapTotal);
  expect(r.body.newSpace + r.body.oldSpace).toBeLessThanOrEqual(r.body.heapTotal);
  expect(r.body.rss).toBeGreaterThan(r.body.heapUsed);
});

test("the control API answers loopback callers only", () => {
  // Non-loopback traffic cannot be produced in this sandbox; the check itself is unit-tested.
  expect(isLoopback("127.0.0.1")).toBe(true);
  expect(isLoopback("::1")).toBe(true);
  expect(isLoopback("::ffff:127.0.0.1")).toBe(true);
  expect(isLoopback("192.0.2.10")).toBe(false);
  expect(isLoopback("::ffff:192.0.2.10")).toBe(false);
  expect(isLoopback(undefined)).toBe(false);
});

test("buildEmulator returns the fastify app, not yet listening", async () => {
  const token = "b".repeat(64);
  const app = buildEmulator({ token });
  try {
    expect(app.server.listening).toBe(false);
    expect(app.emulator.token).toBe(token);
    await app.listen({ host: "127.0.0.1", port: 0 });
    const address = app.server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    const r = await call(`http://127.0.0.1:${port}/v4`, "GET", "/vpcs", {}, token);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: [], page: 1, pages: 1, results: 0 });
  } finally {
    await app.close();
  }
});
