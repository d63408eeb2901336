/**
 * IP addresses and IPv6 ranges in the emulator (spec "Networking: IP addresses, IPv6, VLANs",
 * "Errors", "Limits"; api-facts P2-5, P6-2, P7-1, P7-2): one test per rule, each asserting the
 * status code, `field` and reason (texts from the sdk's `IP_REASONS`), plus the happy paths, the
 * events, scopes and grants.
 */
import { IP_REASONS, IpAddress, IpAllocateRequest, Ipv6RangeCreateRequest, Ipv6RangeView } from "../../../../sdk/resources/ips";
import { Collection } from "../../../../sdk/core/schema";
import { REASONS } from "../../../../emulator";
import { expectError, onlyError, sdkErrors, startTestEmulator, vpcBody, type TestEmulator } from "../../helpers";
import { COMPUTES } from "../../../../emulator/services/computes/store";
import { IPV6_RANGES } from "../../../../emulator/services/ips/store";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.control.reset());

type Seed = Parameters<TestEmulator["control"]["seedCompute"]>[0];
const seed = (label: string, extra: Partial<Seed> = {}) => emu.control.seedCompute({ label, region: "us-iad", ...extra } as Seed);

/** A master zone with one A/AAAA record, through the DNS API (forward DNS for rDNS). */
async function forwardRecord(zone: string, name: string, type: "A" | "AAAA", target: string): Promise<void> {
  let domain = (await emu.get("/domains", { headers: { "X-Filter": JSON.stringify({ domain: zone }) } })).body?.data?.[0];
  if (!domain) {
    const created = await emu.post("/domains", { domain: zone, type: "master", soa_email: `admin@${zone}` });
    expect(created.status).toBe(200);
    domain = created.body;
  }
  const record = await emu.post(`/domains/${domain.id}/records`, { type, name, target });
  expect(record.status).toBe(200);
}

async function events(action: string): Promise<any[]> {
  const r = await emu.get("/account/events", { headers: { "X-Filter": JSON.stringify({ action }) } });
  return r.body.data;
}

/** A VPC in us-iad with one subnet, and an instance whose VPC interface NATs its public address. */
async function natInstance(active: boolean) {
  const vpc = (await emu.post("/vpcs", vpcBody("nat-vpc", { region: "us-iad", subnets: [{ label: "s", ipv4: "10.0.0.0/24" }] }))).body;
  return seed("nat", {
    ipv4: ["203.0.113.50"],
    configs: [{ interfaces: [{ purpose: "vpc", subnet_id: vpc.subnets[0].id, ipv4: { nat_1_1: "any" }, active }] }],
  });
}

// ---------------------------------------------------------------------------------------------

describe("listing and viewing addresses", () => {
  test("the list has public IPv4 and SLAAC entries in the recorded shapes; private addresses are left out", async () => {
    const c = seed("web", { ipv4: ["198.51.100.10"], ipv4_private: ["192.168.130.5"] });
    const r = await emu.get("/networking/ips");
    expect(r.status).toBe(200);
    const page = Collection(IpAddress).parse(r.body);
    expect(page.data.map((a) => a.address)).toEqual(["198.51.100.10", c.ipv6]);
    expect(Object.keys(r.body.data[0])).toEqual([
      "address",
      "gateway",
      "subnet_mask",
      "prefix",
      "type",
      "public",
      "rdns",
      "compute_id",
      "region",
      "vpc_nat_1_1",
    ]);
    expect(r.body.data[0]).toEqual({
      address: "198.51.100.10",
      gateway: "198.51.100.1",
      subnet_mask: "255.255.255.0",
      prefix: 24,
      type: "ipv4",
      public: true,
      rdns: "198-51-100-10.ip.computeusercontent.com",
      compute_id: c.id,
      region: "us-iad",
      vpc_nat_1_1: null,
    });
    expect(r.body.data[1]).toEqual({
      address: c.ipv6,
      gateway: "fe80::1",
      subnet_mask: "ffff:ffff:ffff:ffff::",
      prefix: 64,
      type: "ipv6",
      public: true,
      rdns: null,
      compute_id: c.id,
      region: "us-iad",
    });
  });

  test("a private address is still viewable on its own, and a NATed public address names its VPC address", async () => {
    seed("web", { ipv4: ["198.51.100.10"], ipv4_private: ["192.168.130.5"] });
    const priv = await emu.get("/networking/ips/192.168.130.5");
    expect(priv.body).toMatchObject({
      address: "192.168.130.5",
      public: false,
      prefix: 17,
      subnet_mask: "255.255.128.0",
      gateway: null,
      rdns: null,
    });
    expect(priv.body).not.toHaveProperty("vpc_nat_1_1");
    const nat = await natInstance(true);
    const natted = await emu.get("/networking/ips/203.0.113.50");
    expect(natted.body.vpc_nat_1_1).toEqual({ vpc_id: expect.any(Number), subnet_id: expect.any(Number), address: "10.0.0.2" });
    const listed = (await emu.get("/networking/ips")).body.data.find((a: IpAddress) => a.compute_id === nat.id && a.type === "ipv4");
    expect(listed.vpc_nat_1_1).toEqual(natted.body.vpc_nat_1_1);
  });

  test("an IPv6 address is found under any spelling; an unknown one is 404 Not found", async () => {
    const c = seed("web", { ipv6: "2001:DB8:0:0:0:0:0:AB" });
    expect(c.ipv6).toBe("2001:db8::ab");
    const r = await emu.get(`/networking/ips/${encodeURIComponent("2001:0db8::00ab")}`);
    expect(r.body).toMatchObject({ address: "2001:db8::ab", type: "ipv6" });
    expectError(await emu.get("/networking/ips/10.0.0.1"), 404, REASONS.notFound);
    expectError(await emu.get("/networking/ips/not-an-ip"), 404, REASONS.notFound);
  });

  test("skip_ipv6_rdns (query or body) answers null rdns for IPv6 entries only", async () => {
    const c = seed("web", { ipv4: ["198.51.100.10"] });
    await forwardRecord("example.org", "v6", "AAAA", c.ipv6!);
    expect((await emu.put(`/networking/ips/${c.ipv6}`, { rdns: "v6.example.org" })).status).toBe(200);
    const plain = (await emu.get("/networking/ips")).body.data;
    expect(plain.map((a: IpAddress) => a.rdns)).toEqual(["198-51-100-10.ip.computeusercontent.com", "v6.example.org"]);
    for (const options of [{ query: { skip_ipv6_rdns: "true" } }, { body: { skip_ipv6_rdns: true } }]) {
      const skipped = (await emu.api("GET", "/networking/ips", options)).body.data;
      expect(skipped.map((a: IpAddress) => a.rdns)).toEqual(["198-51-100-10.ip.computeusercontent.com", null]);
    }
    expectError(
      await emu.get("/networking/ips", { query: { skip_ipv6_rdns: "maybe" } }),
      400,
      IP_REASONS.skipIpv6RdnsInvalid,
      "skip_ipv6_rdns",
    );
  });

  test("a restricted user lists only the addresses of granted instances and gets 403 on others", async () => {
    const mine = seed("mine", { ipv4: ["198.51.100.10"] });
    seed("theirs", { ipv4: ["198.51.100.11"] });
    const { token } = emu.control.createToken({ restricted: true, grants: { compute: [{ id: mine.id, permissions: "read_only" }] } });
    const listed = (await emu.get("/networking/ips", { token })).body.data.map((a: IpAddress) => a.compute_id);
    expect(new Set(listed)).toEqual(new Set([mine.id]));
    expectError(await emu.get("/networking/ips/198.51.100.11", { token }), 403, REASONS.unauthorized);
  });

  test("scopes: reads need ips:read_only", async () => {
    seed("web");
    const { token } = emu.control.createToken({ scopes: ["computes:read_only"] });
    expectError(await emu.get("/networking/ips", { token }), 401, REASONS.oauthScope);
    const ok = emu.control.createToken({ scopes: ["ips:read_only"] });
    expect((await emu.get("/networking/ips", { token: ok.token })).status).toBe(200);
  });
});

describe("allocation", () => {
  test("an instance enabled for additional addresses gets a public IPv4 address, with event compute_addip", async () => {
    const c = seed("web", { additional_ipv4: true });
    const r = await emu.post("/networking/ips", { compute_id: c.id, public: true, type: "ipv4" });
    expect(r.status).toBe(200);
    expect(IpAddress.parse(r.body)).toMatchObject({ type: "ipv4", public: true, compute_id: c.id, region: "us-iad", prefix: 24 });
    expect(r.body.rdns).toBe(`${r.body.address.replace(/\./g, "-")}.ip.computeusercontent.com`);
    expect((await emu.get(`/networking/ips/${r.body.address}`)).body.compute_id).toBe(c.id);
    const [event] = await events("compute_addip");
    expect(event).toMatchObject({ status: "notification", entity: { id: c.id, type: "compute", url: `/v4/compute/instances/${c.id}` } });
  });

  test("an instance not enabled for additional addresses is refused a public address", async () => {
    const c = seed("web");
    expectError(
      await emu.post("/networking/ips", { compute_id: c.id, public: true, type: "ipv4" }),
      400,
      IP_REASONS.allocationNotEnabled,
      "compute_id",
    );
    expect(await events("compute_addip")).toEqual([]);
  });

  test("a private address can be added once; a second is refused", async () => {
    const c = seed("web");
    const first = await emu.post("/networking/ips", { compute_id: c.id, public: false, type: "ipv4" });
    expect(first.body).toMatchObject({ public: false, prefix: 17, gateway: null, rdns: null });
    expect(first.body.address).toMatch(/^192\.168\./);
    expectError(
      await emu.post("/networking/ips", { compute_id: c.id, public: false, type: "ipv4" }),
      400,
      IP_REASONS.privateExists,
      "public",
    );
  });

  test("an unknown instance: Invalid Compute ID <n>", async () => {
    expectError(
      await emu.post("/networking/ips", { compute_id: 99999, public: true, type: "ipv4" }),
      400,
      IP_REASONS.invalidCompute(99999),
      "compute_id",
    );
  });

  test("body validation is the sdk schema's: type ipv4 only, every field required", async () => {
    const c = seed("web", { additional_ipv4: true });
    expectError(await emu.post("/networking/ips", { compute_id: c.id, public: true, type: "ipv6" }), 400, IP_REASONS.typeIpv4, "type");
    const r = await emu.post("/networking/ips", {});
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual(sdkErrors(IpAllocateRequest, {}));
    expect(r.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["compute_id", "public", "type"]);
  });

  test("allocation needs computes:read_write besides ips:read_write, and read_write on the instance", async () => {
    const c = seed("web", { additional_ipv4: true });
    const body = { compute_id: c.id, public: true, type: "ipv4" };
    const { token } = emu.control.createToken({ scopes: ["ips:read_write"] });
    expectError(await emu.post("/networking/ips", body, { token }), 401, REASONS.oauthScope);
    const ro = emu.control.createToken({ restricted: true, grants: { compute: [{ id: c.id, permissions: "read_only" }] } });
    expectError(await emu.post("/networking/ips", body, { token: ro.token }), 403, REASONS.unauthorized);
  });
});

describe("assignment", () => {
  test("addresses move between instances on both paths, with the region given once or per assignment", async () => {
    const a = seed("a", { ipv4: ["198.51.100.1", "198.51.100.2"] });
    const b = seed("b", { ipv4: ["198.51.100.3"] });
    const r = await emu.post("/networking/ips/assign", { region: "us-iad", assignments: [{ address: "198.51.100.2", compute_id: b.id }] });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
    expect((await emu.get("/networking/ips/198.51.100.2")).body.compute_id).toBe(b.id);
    const back = await emu.post("/networking/ipv4/assign", {
      assignments: [{ address: "198.51.100.2", compute_id: a.id, region: "us-iad" }],
    });
    expect(back.status).toBe(200);
    expect((await emu.get("/networking/ips/198.51.100.2")).body.compute_id).toBe(a.id);
  });

  test("two instances can swap addresses in one request", async () => {
    const a = seed("a", { ipv4: ["198.51.100.1"] });
    const b = seed("b", { ipv4: ["198.51.100.2"] });
    const r = await emu.post("/networking/ips/assign", {
      region: "us-iad",
      assignments: [
        { address: "198.51.100.1", compute_id: b.id },
        { address: "198.51.100.2", compute_id: a.id },
      ],
    });
    expect(r.status).toBe(200);
    expect((await emu.get("/networking/ips/198.51.100.1")).body.compute_id).toBe(b.id);
    expect((await emu.get("/networking/ips/198.51.100.2")).body.compute_id).toBe(a.id);
  });

  test("an unknown address: IP Address not found. (as recorded, no field)", async () => {
    const a = seed("a");
    expectError(
      await emu.post("/networking/ips/assign", { region: "us-iad", assignments: [{ address: "192.0.2.1", compute_id: a.id }] }),
      400,
      IP_REASONS.addressNotFound,
    );
  });

  test("an unknown instance: Invalid Compute ID <n> (as recorded, no field)", async () => {
    seed("a", { ipv4: ["198.51.100.1"] });
    expectError(
      await emu.post("/networking/ips/assign", { region: "us-iad", assignments: [{ address: "198.51.100.1", compute_id: 99999 }] }),
      400,
      IP_REASONS.invalidCompute(99999),
    );
  });

  test("an instance would be left without a public IPv4 address", async () => {
    const a = seed("a", { ipv4: ["198.51.100.1"] });
    const b = seed("b", { ipv4: ["198.51.100.2"] });
    const r = await emu.post("/networking/ips/assign", { region: "us-iad", assignments: [{ address: "198.51.100.1", compute_id: b.id }] });
    expectError(r, 400, IP_REASONS.assignNoPublic(a.id), "assignments");
    expect((await emu.get("/networking/ips/198.51.100.1")).body.compute_id).toBe(a.id);
  });

  test("an instance would have more than one private IPv4 address", async () => {
    seed("a", { ipv4: ["198.51.100.1"], ipv4_private: ["192.168.130.1"] });
    const b = seed("b", { ipv4: ["198.51.100.2"], ipv4_private: ["192.168.130.2"] });
    const r = await emu.post("/networking/ips/assign", { region: "us-iad", assignments: [{ address: "192.168.130.1", compute_id: b.id }] });
    expectError(r, 400, IP_REASONS.assignPrivateLimit(b.id), "assignments");
  });

  test("an instance would have more than one IPv6 range", async () => {
    const a = seed("a");
    const b = seed("b");
    const ra = await emu.post("/networking/ipv6/ranges", { prefix_length: 64, compute_id: a.id });
    expect(ra.status).toBe(200);
    // One range per region is the default limit; a second one exists here as support would grant it.
    IPV6_RANGES.of(emu.emulator.state.accounts[emu.emulator.state.primaryAccount]!).push({
      range: "2001:db8:4:9000::",
      prefix: 64,
      region: "us-iad",
      route_target: b.ipv6!,
      created: "2024-01-01T00:00:00",
    });
    const r = await emu.post("/networking/ips/assign", { region: "us-iad", assignments: [{ address: ra.body.range, compute_id: b.id }] });
    expectError(r, 400, IP_REASONS.assignRangeLimit(b.id), "assignments");
  });

  test("a shared address cannot be swapped", async () => {
    const a = seed("a", { ipv4: ["198.51.100.1", "198.51.100.2"] });
    const b = seed("b", { ipv4: ["198.51.100.3"] });
    expect((await emu.post("/networking/ips/share", { compute_id: b.id, ips: ["198.51.100.2"] })).status).toBe(200);
    const r = await emu.post("/networking/ips/assign", { region: "us-iad", assignments: [{ address: "198.51.100.2", compute_id: b.id }] });
    expectError(r, 400, IP_REASONS.assignShared("198.51.100.2"), "assignments[0].address");
    expect((await emu.get("/networking/ips/198.51.100.2")).body.compute_id).toBe(a.id);
  });

  test("an address with an active 1:1 NAT to a VPC interface cannot be assigned (an inactive one can)", async () => {
    await natInstance(true);
    const b = seed("b", { ipv4: ["198.51.100.3"] });
    const body = { region: "us-iad", assignments: [{ address: "203.0.113.50", compute_id: b.id }] };
    // The NATed instance keeps a second public address, so only the NAT rule can refuse.
    COMPUTES.of(emu.emulator.state.accounts[emu.emulator.state.primaryAccount]!)[0]!.ipv4.push("203.0.113.51");
    expectError(await emu.post("/networking/ips/assign", body), 400, IP_REASONS.assignNat("203.0.113.50"), "assignments[0].address");
    COMPUTES.of(emu.emulator.state.accounts[emu.emulator.state.primaryAccount]!)[0]!.configs[0]!.interfaces[0]!.active = false;
    expect((await emu.post("/networking/ips/assign", body)).status).toBe(200);
  });

  test("every address and instance must be in the given region", async () => {
    seed("a", { ipv4: ["198.51.100.1", "198.51.100.2"] });
    const far = seed("far", { region: "us-ord", ipv4: ["198.51.100.9"] });
    const r = await emu.post("/networking/ips/assign", {
      region: "us-iad",
      assignments: [{ address: "198.51.100.2", compute_id: far.id }],
    });
    expectError(r, 400, IP_REASONS.regionCompute(far.id, "us-iad"), "region");
    const r2 = await emu.post("/networking/ips/assign", {
      assignments: [{ address: "198.51.100.2", compute_id: far.id, region: "us-ord" }],
    });
    expectError(r2, 400, IP_REASONS.regionAddress("198.51.100.2", "us-ord"), "assignments[0].region");
  });

  test("the caller needs read_write on every address and instance involved", async () => {
    const a = seed("a", { ipv4: ["198.51.100.1", "198.51.100.2"] });
    const b = seed("b", { ipv4: ["198.51.100.3"] });
    const body = { region: "us-iad", assignments: [{ address: "198.51.100.2", compute_id: b.id }] };
    const onAddress = emu.control.createToken({
      restricted: true,
      grants: {
        compute: [
          { id: a.id, permissions: "read_only" },
          { id: b.id, permissions: "read_write" },
        ],
      },
    });
    expectError(await emu.post("/networking/ips/assign", body, { token: onAddress.token }), 403, REASONS.unauthorized);
    const onInstance = emu.control.createToken({ restricted: true, grants: { compute: [{ id: a.id, permissions: "read_write" }] } });
    expectError(await emu.post("/networking/ips/assign", body, { token: onInstance.token }), 403, REASONS.unauthorized);
    const both = emu.control.createToken({
      restricted: true,
      grants: {
        compute: [
          { id: a.id, permissions: "read_write" },
          { id: b.id, permissions: "read_write" },
        ],
      },
    });
    expect((await emu.post("/networking/ips/assign", body, { token: both.token })).status).toBe(200);
  });

  test("assigning an IPv6 range moves its route target to the instance's SLAAC address", async () => {
    const a = seed("a");
    const b = seed("b");
    const created = (await emu.post("/networking/ipv6/ranges", { prefix_length: 64, compute_id: a.id })).body;
    expect(created.route_target).toBe(a.ipv6);
    const r = await emu.post("/networking/ips/assign", { region: "us-iad", assignments: [{ address: created.range, compute_id: b.id }] });
    expect(r.status).toBe(200);
    const [listed] = (await emu.get("/networking/ipv6/ranges")).body.data;
    expect(listed.route_target).toBe(b.ipv6);
    expect((await emu.get(`/networking/ipv6/ranges/${listed.range}`)).body.computes).toEqual([b.id]);
  });

  test("body validation: an IPv6 address without /56 or /64, a missing region", async () => {
    const a = seed("a");
    expectError(
      await emu.post("/networking/ips/assign", { region: "us-iad", assignments: [{ address: "2001:db8::/48", compute_id: a.id }] }),
      400,
      IP_REASONS.assignAddress,
      "assignments[0].address",
    );
    expectError(
      await emu.post("/networking/ips/assign", { assignments: [{ address: "198.51.100.1", compute_id: a.id }] }),
      400,
      IP_REASONS.assignRegionMissing,
      "assignments[0].region",
    );
  });
});

describe("sharing", () => {
  test("an instance shares addresses and ranges of its region; an empty list removes them all", async () => {
    seed("a", { ipv4: ["198.51.100.1", "198.51.100.2"] });
    const b = seed("b", { ipv4: ["198.51.100.3"] });
    const a2 = seed("a2");
    const range = (await emu.post("/networking/ipv6/ranges", { prefix_length: 64, compute_id: a2.id })).body.range.split("/")[0];
    const r = await emu.post("/networking/ipv4/share", { compute_id: b.id, ips: ["198.51.100.2", range.toUpperCase()] });
    expect(r.status).toBe(200);
    expect(Ipv6RangeView.parse((await emu.get(`/networking/ipv6/ranges/${range}`)).body)).toMatchObject({
      is_bgp: true,
      computes: [a2.id, b.id],
    });
    expect((await emu.post("/networking/ips/share", { compute_id: b.id, ips: [] })).status).toBe(200);
    expect((await emu.get(`/networking/ipv6/ranges/${range}`)).body).toMatchObject({ is_bgp: false, computes: [a2.id] });
  });

  test("a public IPv4 address with a 1:1 NAT on a VPC interface cannot be shared", async () => {
    await natInstance(false);
    const b = seed("b", { ipv4: ["198.51.100.3"] });
    expectError(
      await emu.post("/networking/ips/share", { compute_id: b.id, ips: ["203.0.113.50"] }),
      400,
      IP_REASONS.shareNat("203.0.113.50"),
      "ips[0]",
    );
  });

  test("shared addresses must be in the instance's region, not its own, and exist", async () => {
    const a = seed("a", { ipv4: ["198.51.100.1"] });
    seed("far", { region: "us-ord", ipv4: ["198.51.100.9"] });
    expectError(
      await emu.post("/networking/ips/share", { compute_id: a.id, ips: ["198.51.100.9"] }),
      400,
      IP_REASONS.shareRegion("198.51.100.9", a.id),
      "ips[0]",
    );
    expectError(
      await emu.post("/networking/ips/share", { compute_id: a.id, ips: ["198.51.100.1"] }),
      400,
      IP_REASONS.shareOwn("198.51.100.1", a.id),
      "ips[0]",
    );
    expectError(
      await emu.post("/networking/ips/share", { compute_id: a.id, ips: ["192.0.2.77"] }),
      400,
      IP_REASONS.addressNotFound,
      "ips[0]",
    );
    expectError(
      await emu.post("/networking/ips/share", { compute_id: 99999, ips: [] }),
      400,
      IP_REASONS.invalidCompute(99999),
      "compute_id",
    );
  });
});

describe("reverse DNS", () => {
  test("a name with a forward A record is set (stored lower case, without the final dot), with event ipaddress_update", async () => {
    const c = seed("web", { ipv4: ["198.51.100.10"] });
    await forwardRecord("example.org", "www", "A", "198.51.100.10");
    const r = await emu.put("/networking/ips/198.51.100.10", { rdns: "WWW.Example.org." });
    expect(r.status).toBe(200);
    expect(IpAddress.parse(r.body)).toMatchObject({ address: "198.51.100.10", rdns: "www.example.org", compute_id: c.id });
    const [event] = await events("ipaddress_update");
    expect(event).toMatchObject({
      status: "notification",
      entity: { type: "ipaddress", label: "198.51.100.10", url: "/v4/networking/ips/198.51.100.10" },
    });
  });

  test("a name without forward DNS to this address is refused", async () => {
    seed("web", { ipv4: ["198.51.100.10"] });
    expectError(await emu.put("/networking/ips/198.51.100.10", { rdns: "www.example.org" }), 400, IP_REASONS.rdnsNoForward, "rdns");
    await forwardRecord("example.org", "www", "A", "198.51.100.99");
    expectError(await emu.put("/networking/ips/198.51.100.10", { rdns: "www.example.org" }), 400, IP_REASONS.rdnsNoForward, "rdns");
    expect(await events("ipaddress_update")).toEqual([]);
  });

  test("with a forward-DNS delay, a new A record counts for reverse DNS only once the delay has passed (control.ips)", async () => {
    seed("web", { ipv4: ["198.51.100.10"] });
    expect(emu.control.ips.delayForwardDns({ seconds: 20 })).toMatchObject({ seconds: 20 });
    await forwardRecord("example.org", "www", "A", "198.51.100.10");
    expectError(await emu.put("/networking/ips/198.51.100.10", { rdns: "www.example.org" }), 400, IP_REASONS.rdnsNoForward, "rdns");
    emu.control.setClock({ advanceMs: 19_000 });
    expectError(await emu.put("/networking/ips/198.51.100.10", { rdns: "www.example.org" }), 400, IP_REASONS.rdnsNoForward, "rdns");
    emu.control.setClock({ advanceMs: 1_000 });
    expect((await emu.put("/networking/ips/198.51.100.10", { rdns: "www.example.org" })).status).toBe(200);
    // Off again: a record is seen at once.
    emu.control.ips.delayForwardDns({ seconds: 0 });
    await forwardRecord("example.org", "api", "A", "198.51.100.10");
    expect((await emu.put("/networking/ips/198.51.100.10", { rdns: "api.example.org" })).status).toBe(200);
  });

  test("a name that is not a domain: Domain is not valid. (field rdns, as recorded)", async () => {
    seed("web", { ipv4: ["198.51.100.10"] });
    expectError(await emu.put("/networking/ips/198.51.100.10", { rdns: "sample rdns" }), 400, IP_REASONS.rdnsInvalid, "rdns");
    expectError(await emu.put("/networking/ips/198.51.100.10", {}), 400, IP_REASONS.rdnsRequired, "rdns");
  });

  test("null restores the platform default of a public IPv4 address and clears an IPv6 one", async () => {
    const c = seed("web", { ipv4: ["198.51.100.10"] });
    await forwardRecord("example.org", "www", "A", "198.51.100.10");
    await forwardRecord("example.org", "", "AAAA", c.ipv6!);
    await emu.put("/networking/ips/198.51.100.10", { rdns: "www.example.org" });
    await emu.put(`/networking/ips/${c.ipv6}`, { rdns: "example.org" });
    expect((await emu.put("/networking/ips/198.51.100.10", { rdns: null })).body.rdns).toBe("198-51-100-10.ip.computeusercontent.com");
    expect((await emu.get(`/networking/ips/${c.ipv6}`)).body.rdns).toBe("example.org");
    expect((await emu.put(`/networking/ips/${c.ipv6}`, { rdns: null })).body.rdns).toBeNull();
    expect(await events("ipaddress_update")).toHaveLength(4);
  });

  test("the platform's own default name needs no forward record of the account", async () => {
    seed("web", { ipv4: ["198.51.100.10"] });
    const r = await emu.put("/networking/ips/198.51.100.10", { rdns: "198-51-100-10.ip.computeusercontent.com" });
    expect(r.status).toBe(200);
  });

  test("a private address has no reverse DNS", async () => {
    seed("web", { ipv4_private: ["192.168.130.5"] });
    expectError(await emu.put("/networking/ips/192.168.130.5", { rdns: "www.example.org" }), 400, IP_REASONS.rdnsPrivate, "rdns");
  });

  test("a restricted user needs read_write on the instance holding the address", async () => {
    const c = seed("web", { ipv4: ["198.51.100.10"] });
    const { token } = emu.control.createToken({ restricted: true, grants: { compute: [{ id: c.id, permissions: "read_only" }] } });
    expectError(await emu.put("/networking/ips/198.51.100.10", { rdns: null }, { token }), 403, REASONS.unauthorized);
  });
});

describe("IPv6 pools and ranges", () => {
  test("every region has one pool", async () => {
    const r = await emu.get("/networking/ipv6/pools");
    expect(r.body.results).toBe(25);
    expect(r.body.data[0]).toEqual({ range: "2001:db8:1:ffff::", prefix: 124, region: "ap-west", route_target: "2001:db8:1:ffff::f" });
    const filtered = await emu.get("/networking/ipv6/pools", { headers: { "X-Filter": JSON.stringify({ region: "us-iad" }) } });
    expect(filtered.body.data).toHaveLength(1);
  });

  test("a range routed by compute_id or route_target: create answers {range: addr/len, route_target}; list and view; events", async () => {
    const a = seed("a");
    const b = seed("b", { region: "us-ord" });
    const one = await emu.post("/networking/ipv6/ranges", { prefix_length: 64, compute_id: a.id });
    expect(one.body).toEqual({ range: expect.stringMatching(/^2001:db8:4:8000::\/64$/), route_target: a.ipv6 });
    const spelled = b.ipv6!.toUpperCase().replace("2001:DB8:", "2001:0DB8:");
    const two = await emu.post("/networking/ipv6/ranges", { prefix_length: 56, route_target: spelled });
    expect(two.body).toEqual({ range: expect.stringMatching(/\/56$/), route_target: b.ipv6 });
    const list = (await emu.get("/networking/ipv6/ranges")).body.data;
    expect(list).toEqual([
      { range: one.body.range.split("/")[0], prefix: 64, region: "us-iad", route_target: a.ipv6 },
      { range: two.body.range.split("/")[0], prefix: 56, region: "us-ord", route_target: b.ipv6 },
    ]);
    const view = await emu.get(`/networking/ipv6/ranges/${list[0].range}`);
    expect(view.body).toEqual({ range: list[0].range, prefix: 64, region: "us-iad", is_bgp: false, computes: [a.id] });
    expect(await events("ipv6pool_add")).toHaveLength(2);
  });

  test("both compute_id and route_target: refused, naming both fields", async () => {
    const a = seed("a");
    const r = await emu.post("/networking/ipv6/ranges", { prefix_length: 64, compute_id: a.id, route_target: a.ipv6 });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([
      { field: "compute_id", reason: IP_REASONS.rangeTargetBoth },
      { field: "route_target", reason: IP_REASONS.rangeTargetBoth },
    ]);
  });

  test("neither compute_id nor route_target: refused, naming both fields", async () => {
    const r = await emu.post("/networking/ipv6/ranges", { prefix_length: 64 });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual(sdkErrors(Ipv6RangeCreateRequest, { prefix_length: 64 }));
    expect(r.body.errors).toEqual([
      { field: "compute_id", reason: IP_REASONS.rangeTargetNeither },
      { field: "route_target", reason: IP_REASONS.rangeTargetNeither },
    ]);
  });

  test("prefix_length must be 56 or 64; route_target must be an address without /128", async () => {
    const a = seed("a");
    expectError(
      await emu.post("/networking/ipv6/ranges", { prefix_length: 48, compute_id: a.id }),
      400,
      IP_REASONS.prefixLength,
      "prefix_length",
    );
    expectError(
      await emu.post("/networking/ipv6/ranges", { prefix_length: 64, route_target: `${a.ipv6}/128` }),
      400,
      IP_REASONS.routeTargetInvalid,
      "route_target",
    );
    expectError(
      await emu.post("/networking/ipv6/ranges", { prefix_length: 64, route_target: "2001:db8::dead" }),
      400,
      IP_REASONS.routeTargetUnknown,
      "route_target",
    );
    expectError(
      await emu.post("/networking/ipv6/ranges", { prefix_length: 64, compute_id: 99999 }),
      400,
      IP_REASONS.invalidCompute(99999),
      "compute_id",
    );
  });

  test("a second range targeting one SLAAC address is refused", async () => {
    const a = seed("a");
    expect((await emu.post("/networking/ipv6/ranges", { prefix_length: 64, compute_id: a.id })).status).toBe(200);
    expectError(
      await emu.post("/networking/ipv6/ranges", { prefix_length: 56, route_target: a.ipv6 }),
      400,
      IP_REASONS.rangeSlaacLimit,
      "route_target",
    );
  });

  test("a second range in a region on one account is refused; another account may have one there", async () => {
    const a = seed("a");
    const b = seed("b");
    expect((await emu.post("/networking/ipv6/ranges", { prefix_length: 64, compute_id: a.id })).status).toBe(200);
    expectError(await emu.post("/networking/ipv6/ranges", { prefix_length: 64, compute_id: b.id }), 400, IP_REASONS.rangeRegionLimit);
    const other = emu.control.createAccount({ id: "other" });
    const c = emu.control.seedCompute({ account: "other", label: "c", region: "us-iad" });
    expect((await emu.post("/networking/ipv6/ranges", { prefix_length: 64, compute_id: c.id }, { token: other.token })).status).toBe(200);
  });

  test("a shared range cannot be deleted; once unshared it is, with event ipv6pool_delete", async () => {
    const a = seed("a");
    const b = seed("b");
    const range = (await emu.post("/networking/ipv6/ranges", { prefix_length: 64, compute_id: a.id })).body.range.split("/")[0];
    await emu.post("/networking/ips/share", { compute_id: b.id, ips: [range] });
    expectError(await emu.del(`/networking/ipv6/ranges/${range}`), 400, IP_REASONS.rangeShared);
    await emu.post("/networking/ips/share", { compute_id: b.id, ips: [] });
    const r = await emu.del(`/networking/ipv6/ranges/${range}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
    expectError(await emu.get(`/networking/ipv6/ranges/${range}`), 404, REASONS.notFound);
    expect(await events("ipv6pool_delete")).toHaveLength(1);
  });

  test("range creation needs computes:read_write; a restricted user read_write on the instance", async () => {
    const a = seed("a");
    const { token } = emu.control.createToken({ scopes: ["ips:read_write"] });
    expectError(await emu.post("/networking/ipv6/ranges", { prefix_length: 64, compute_id: a.id }, { token }), 401, REASONS.oauthScope);
    const ro = emu.control.createToken({ restricted: true, grants: { compute: [{ id: a.id, permissions: "read_only" }] } });
    expectError(
      await emu.post("/networking/ipv6/ranges", { prefix_length: 64, compute_id: a.id }, { token: ro.token }),
      403,
      REASONS.unauthorized,
    );
  });
});

describe("seeding instances' addresses (control API)", () => {
  test("defaults keep older seeds working: the plan's SLAAC address, no private address, allocation not enabled", async () => {
    const r = await emu.ctl("POST", "/seed/computes", { label: "old-style", region: "us-iad" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      ipv4: [expect.any(String)],
      ipv4_private: [],
      ipv6: expect.stringMatching(/^2001:db8:4:/),
      additional_ipv4: false,
      shared_ips: [],
    });
  });

  test.each([
    [{ ipv4_private: ["10.0.0.5"] }, "ipv4_private[0]"],
    [{ ipv4_private: ["192.168.130.1", "192.168.130.2"] }, "ipv4_private"],
    [{ ipv6: "not-v6" }, "ipv6"],
    [{ ipv4: ["192.168.130.9"] }, "ipv4[0]"],
  ])("a bad address seed %j is refused naming %s", async (extra, field) => {
    const r = await emu.ctl("POST", "/seed/computes", { label: "x", region: "us-iad", ...extra });
    expect(r.status).toBe(400);
    expect(onlyError(r).field).toBe(field);
  });

  test("addresses are unique: a taken public, private (in the region) or SLAAC address is refused", async () => {
    seed("a", { ipv4: ["198.51.100.1"], ipv4_private: ["192.168.130.1"], ipv6: "2001:db8::1" });
    for (const [extra, field] of [
      [{ ipv4: ["198.51.100.1"] }, "ipv4[0]"],
      [{ ipv4_private: ["192.168.130.1"] }, "ipv4_private[0]"],
      [{ ipv6: "2001:DB8::1" }, "ipv6"],
    ] as const) {
      const r = await emu.ctl("POST", "/seed/computes", { label: "b", region: "us-iad", ...extra });
      expect(r.status).toBe(400);
      expect(onlyError(r).field).toBe(field);
    }
    expect((await emu.ctl("POST", "/seed/computes", { label: "c", region: "us-ord", ipv4_private: ["192.168.130.1"] })).status).toBe(200);
  });

  test("an instance seeded without IPv6 lists no SLAAC entry and cannot take a range", async () => {
    const c = seed("v4-only", { ipv6: null, ipv4: ["198.51.100.1"] });
    expect((await emu.get("/networking/ips")).body.data.map((a: IpAddress) => a.type)).toEqual(["ipv4"]);
    expectError(
      await emu.post("/networking/ipv6/ranges", { prefix_length: 64, compute_id: c.id }),
      400,
      IP_REASONS.rangeNoSlaac,
      "compute_id",
    );
  });
});
