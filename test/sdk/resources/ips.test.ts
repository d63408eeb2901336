/**
 * `client.networking.ips` and `client.networking.ipv6`: every method's method and path (both
 * spellings of assign and share) and the body checks made before sending. The recorded exchanges
 * of the area are replayed through the endpoint declarations in `test/sdk/fixtures.test.ts`.
 */
import { ClientValidationError, ConnectionError } from "../../../sdk/core/errors";
import { issuesToErrors } from "../../../sdk/core/schema";
import { IP_REASONS, Ipv6RangeCreateRequest, canonicalRdns, isDomainName, splitRange } from "../../../sdk/resources/ips";
import { canonicalIp, canonicalIpv6, formatIpv6Cidr, ipv6Netmask, parseIpv6, parseIpv6Cidr } from "../../../sdk/core/net";
import { JSON_HEADERS, harness, loadFixture, netError, serveFixture } from "../helpers";

const sent = (h: ReturnType<typeof harness>) => h.calls().map((c) => `${c.method} ${c.path}`);

describe("IPv6 helpers (sdk/core/net)", () => {
  test.each([
    ["2001:DB8:0:0:0:0:0:1", "2001:db8::1"],
    ["2001:db8:0000:0000:0001:0000:0000:0001", "2001:db8::1:0:0:1"],
    ["::", "::"],
    ["::1", "::1"],
    ["fe80::", "fe80::"],
    ["2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"],
    ["::ffff:192.0.2.1", "::ffff:c000:201"],
  ])("%s is canonically %s (RFC 5952)", (text, canonical) => {
    expect(canonicalIpv6(text)).toBe(canonical);
    expect(canonicalIp(text)).toBe(canonical);
  });

  test.each(["1:2:3:4:5:6:7:8:9", "1::2::3", "12345::", "2001:db8::g", "", "1:2:3:4:5:6:7", "fe80::1%eth0", "::1.2.3"])(
    "%s is not an address",
    (text) => {
      expect(parseIpv6(text)).toBeUndefined();
    },
  );

  test("ranges, netmasks and IPv4 canonical spelling", () => {
    expect(parseIpv6Cidr("2001:db8::1/64")).toMatchObject({ prefix: 64, canonical: false });
    expect(formatIpv6Cidr(parseIpv6Cidr("2001:DB8:0:0::/56")!)).toBe("2001:db8::/56");
    expect(parseIpv6Cidr("2001:db8::/129")).toBeUndefined();
    expect(ipv6Netmask(64)).toBe("ffff:ffff:ffff:ffff::");
    expect(canonicalIp("192.0.2.1")).toBe("192.0.2.1");
    expect(canonicalIp("192.0.2.01")).toBeUndefined();
  });
});

describe("field rules", () => {
  test("reverse DNS names: host names, with an optional final dot; stored lower case without it", () => {
    for (const ok of ["www.example.com", "WWW.Example.COM.", "a-b.c1.example", "194-195-113-106.ip.computeusercontent.com"])
      expect(isDomainName(ok)).toBe(true);
    for (const bad of ["sample rdns", "localhost", "-a.example.com", "a-.example.com", "a..example.com", `${"a".repeat(64)}.com`, ""])
      expect(isDomainName(bad)).toBe(false);
    expect(canonicalRdns("WWW.Example.COM.")).toBe("www.example.com");
  });

  test("range create: exactly one of compute_id and route_target, named both ways", () => {
    const errors = (body: unknown) => issuesToErrors(Ipv6RangeCreateRequest.safeParse(body).error!);
    expect(errors({ prefix_length: 64, compute_id: 1, route_target: "2001:db8::1" })).toEqual([
      { field: "compute_id", reason: IP_REASONS.rangeTargetBoth },
      { field: "route_target", reason: IP_REASONS.rangeTargetBoth },
    ]);
    expect(errors({ prefix_length: 64 }).map((e) => e.reason)).toEqual([IP_REASONS.rangeTargetNeither, IP_REASONS.rangeTargetNeither]);
    expect(errors({ prefix_length: 48, compute_id: 1 })).toEqual([{ field: "prefix_length", reason: IP_REASONS.prefixLength }]);
    expect(errors({ prefix_length: 64, route_target: "2001:db8::1/128" })).toEqual([
      { field: "route_target", reason: IP_REASONS.routeTargetInvalid },
    ]);
  });

  test("splitRange turns create's `addr/len` into the path id and the length", () => {
    expect(splitRange("2001:DB8:0:8000::/64")).toEqual({ range: "2001:db8:0:8000::", prefix: 64 });
    expect(splitRange("nope")).toBeUndefined();
  });
});

describe("Ips", () => {
  test("list() sends skip_ipv6_rdns as a query parameter only when asked", async () => {
    const h = harness();
    serveFixture(h, "ip.list.json");
    serveFixture(h, "ip.list.skip_ipv6_rdns.json");
    const plain = await h.client.networking.ips.listAll();
    const skipped = await h.client.networking.ips.listAll({ skipIpv6Rdns: true });
    expect(plain.map((a) => a.type)).toEqual(["ipv4", "ipv6"]);
    expect(skipped.find((a) => a.type === "ipv6")!.rdns).toBeNull();
    expect(h.calls()[0]!.searchParams).toEqual({ page: "1", page_size: "500" });
    expect(h.calls()[1]!.searchParams).toEqual({ skip_ipv6_rdns: "true", page: "1", page_size: "500" });
  });

  test("get / update (rDNS) on /networking/ips/{address}", async () => {
    const h = harness();
    serveFixture(h, "ip.get.json");
    const upd = serveFixture(h, "ip.update.json");
    await expect(h.client.networking.ips.get("194.195.113.99")).resolves.toMatchObject({
      rdns: "194-195-113-99.ip.computeusercontent.com",
    });
    await expect(h.client.networking.ips.update("194.195.113.106", upd.request as never)).resolves.toMatchObject({
      address: "194.195.113.106",
    });
    expect(sent(h)).toEqual(["GET /v4/networking/ips/194.195.113.99", "PUT /v4/networking/ips/194.195.113.106"]);
    expect(JSON.parse(h.calls()[1]!.body as string)).toEqual(upd.request);
  });

  test("update() sends rdns: null to restore the default, and refuses a bad name before sending", async () => {
    const h = harness();
    h.pool
      .intercept({ path: "/v4/networking/ips/194.195.113.106", method: "PUT" })
      .reply(200, loadFixture("ip.update.json").response as object, JSON_HEADERS);
    await h.client.networking.ips.update("194.195.113.106", { rdns: null });
    expect(JSON.parse(h.calls()[0]!.body as string)).toEqual({ rdns: null });
    const error = await h.client.networking.ips.update("194.195.113.106", { rdns: "sample rdns" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientValidationError);
    expect((error as ClientValidationError).errors).toEqual([{ field: "rdns", reason: IP_REASONS.rdnsInvalid }]);
    expect(h.calls()).toHaveLength(1);
  });

  test("allocate() POSTs /networking/ips and is never retried after an ambiguous failure", async () => {
    const h = harness();
    h.pool
      .intercept({ path: "/v4/networking/ips", method: "POST" })
      .reply(200, loadFixture("ip.get.json").response as object, JSON_HEADERS);
    await expect(h.client.networking.ips.allocate({ compute_id: 39426826, public: true, type: "ipv4" })).resolves.toMatchObject({
      compute_id: 39426826,
    });
    h.pool.intercept({ path: "/v4/networking/ips", method: "POST" }).replyWithError(netError("ECONNRESET"));
    await expect(h.client.networking.ips.allocate({ compute_id: 1, public: true, type: "ipv4" })).rejects.toBeInstanceOf(ConnectionError);
    expect(h.calls()).toHaveLength(2);
    expect(h.retries).toHaveLength(0);
  });

  test("assign() and share() go to /networking/ips/… or, with via: ipv4, /networking/ipv4/…", async () => {
    const h = harness();
    const assign = serveFixture(h, "ip.assign.json");
    const share = serveFixture(h, "ip.share.json");
    h.pool.intercept({ path: "/v4/networking/ipv4/assign", method: "POST" }).reply(200, {}, JSON_HEADERS);
    h.pool.intercept({ path: "/v4/networking/ipv4/share", method: "POST" }).reply(200, {}, JSON_HEADERS);
    await h.client.networking.ips.assign(assign.request as never);
    await h.client.networking.ips.share(share.request as never);
    await h.client.networking.ips.assign(assign.request as never, { via: "ipv4" });
    await h.client.networking.ips.share(share.request as never, { via: "ipv4" });
    expect(sent(h)).toEqual([
      "POST /v4/networking/ips/assign",
      "POST /v4/networking/ips/share",
      "POST /v4/networking/ipv4/assign",
      "POST /v4/networking/ipv4/share",
    ]);
    expect(JSON.parse(h.calls()[0]!.body as string)).toEqual(assign.request);
  });

  test("share() may be retried (the body is the whole list); assign() may not", async () => {
    const h = harness();
    h.pool.intercept({ path: "/v4/networking/ips/share", method: "POST" }).replyWithError(netError("ECONNRESET"));
    h.pool.intercept({ path: "/v4/networking/ips/share", method: "POST" }).reply(200, {}, JSON_HEADERS);
    await h.client.networking.ips.share({ compute_id: 1, ips: [] });
    expect(h.retries).toHaveLength(1);
    h.pool.intercept({ path: "/v4/networking/ips/assign", method: "POST" }).replyWithError(netError("ECONNRESET"));
    await expect(
      h.client.networking.ips.assign({ region: "us-east", assignments: [{ address: "192.0.2.1", compute_id: 1 }] }),
    ).rejects.toBeInstanceOf(ConnectionError);
    expect(h.retries).toHaveLength(1);
  });
});

describe("Ipv6", () => {
  test("pools.list, ranges list / get / create / delete", async () => {
    const h = harness();
    serveFixture(h, "unrecorded/ipv6_pool.list.json");
    serveFixture(h, "ipv6_range.list.json");
    serveFixture(h, "ipv6_range.get.json", "/networking/ipv6/ranges/1234%3A%3A5678");
    const created = serveFixture(h, "ipv6_range.create.json");
    serveFixture(h, "ipv6_range.delete.json", "/networking/ipv6/ranges/1234%3A%3A5678");
    expect(await h.client.networking.ipv6.pools.listAll()).toHaveLength(1);
    expect(await h.client.networking.ipv6.ranges.listAll()).toEqual([
      { range: "1234::5678", prefix: 64, region: "eu-west", route_target: "1234::5678" },
    ]);
    await expect(h.client.networking.ipv6.ranges.get("1234::5678")).resolves.toMatchObject({ is_bgp: false, computes: [46938050] });
    await expect(h.client.networking.ipv6.ranges.create(created.request as never)).resolves.toEqual({
      range: "1234::5678/64",
      route_target: "1234::5678",
    });
    await expect(h.client.networking.ipv6.ranges.delete("1234::5678")).resolves.toBeUndefined();
    expect(sent(h)).toEqual([
      "GET /v4/networking/ipv6/pools",
      "GET /v4/networking/ipv6/ranges",
      "GET /v4/networking/ipv6/ranges/1234%3A%3A5678",
      "POST /v4/networking/ipv6/ranges",
      "DELETE /v4/networking/ipv6/ranges/1234%3A%3A5678",
    ]);
  });

  test("create() refuses both / neither target before sending", async () => {
    const h = harness();
    await expect(h.client.networking.ipv6.ranges.create({ prefix_length: 64 } as never)).rejects.toBeInstanceOf(ClientValidationError);
    expect(h.calls()).toHaveLength(0);
  });
});
