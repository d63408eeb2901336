/** `Vpcs`, `vpcs.subnets`, `vpcs.ips`: every method's path and method, replaying recorded exchanges. */
import { ConnectionError } from "../../../sdk/core/errors";
import { JSON_HEADERS, harness, loadFixture, netError, serveFixture } from "../helpers";

const sent = (h: ReturnType<typeof harness>) => h.calls().map((c) => `${c.method} ${c.path}`);

describe("Vpcs", () => {
  test("create() POSTs the validated body to /vpcs and parses the recorded VPC", async () => {
    const h = harness();
    const f = serveFixture(h, "vpc.create.json");
    const vpc = await h.client.vpcs.create(f.request as never);
    expect(vpc).toMatchObject({ id: 10246, region: "es-mad", subnets: [{ id: 11091, ipv4: "192.168.0.0/25" }] });
    expect(sent(h)).toEqual(["POST /v4/vpcs"]);
    expect(JSON.parse(h.calls()[0]!.body as string)).toEqual(f.request);
  });

  test("create() is never retried after an ambiguous failure, even a timeout", async () => {
    const h = harness({ timeoutMs: 20 });
    h.pool.intercept({ path: "/v4/vpcs", method: "POST" }).replyWithError(netError("ECONNRESET"));
    await expect(h.client.vpcs.create({ label: "a", region: "us-east" })).rejects.toBeInstanceOf(ConnectionError);
    h.pool.intercept({ path: "/v4/vpcs/1/subnets", method: "POST" }).reply(200, {}).delay(300);
    await expect(h.client.vpcs.subnets.create(1, { label: "s", ipv4: "10.0.0.0/24" })).rejects.toMatchObject({ name: "TimeoutError" });
    expect(h.calls()).toHaveLength(2);
    expect(h.retries).toHaveLength(0);
  });

  test("list / listAll / get / update / delete", async () => {
    const h = harness();
    serveFixture(h, "vpc.list.json");
    serveFixture(h, "vpc.list.json");
    serveFixture(h, "vpc.get.json");
    const upd = serveFixture(h, "vpc.update.json");
    serveFixture(h, "vpc.delete.json");

    const listed = [];
    for await (const v of h.client.vpcs.list()) listed.push(v.id);
    expect(await h.client.vpcs.listAll().then((all) => all.map((v) => v.id))).toEqual(listed);
    await expect(h.client.vpcs.get(10252)).resolves.toMatchObject({ id: 10252 });
    await expect(h.client.vpcs.update(10253, upd.request as never)).resolves.toMatchObject({
      label: "updated-label",
      description: "updated description",
    });
    await expect(h.client.vpcs.delete(10252)).resolves.toBeUndefined();
    expect(sent(h)).toEqual(["GET /v4/vpcs", "GET /v4/vpcs", "GET /v4/vpcs/10252", "PUT /v4/vpcs/10253", "DELETE /v4/vpcs/10252"]);
  });
});

describe("Vpcs.subnets", () => {
  test("list / get / update / delete on /vpcs/{id}/subnets[/{subnetId}]", async () => {
    const h = harness();
    serveFixture(h, "subnet.list.json");
    serveFixture(h, "subnet.list.json");
    const withInstance = serveFixture(h, "subnet.get.json");
    const upd = serveFixture(h, "subnet.update.json");
    h.pool.intercept({ path: "/v4/vpcs/10247/subnets/11092", method: "DELETE" }).reply(200, {}, JSON_HEADERS);

    const listed = [];
    for await (const s of h.client.vpcs.subnets.list(10248)) listed.push(s);
    expect(listed.length).toBeGreaterThan(0);
    expect(await h.client.vpcs.subnets.listAll(10248)).toEqual(listed);
    const subnet = await h.client.vpcs.subnets.get(10251, 11095);
    // The recording's subnet has an instance: its compute and interface come through as recorded.
    expect(subnet.computes).toEqual((withInstance.response as { computes: unknown[] }).computes);
    expect(subnet.computes).toHaveLength(1);
    await expect(h.client.vpcs.subnets.update(10247, 11092, upd.request as never)).resolves.toMatchObject({ id: 11092 });
    await expect(h.client.vpcs.subnets.delete(10247, 11092)).resolves.toBeUndefined();
    expect(sent(h)).toEqual([
      "GET /v4/vpcs/10248/subnets",
      "GET /v4/vpcs/10248/subnets",
      "GET /v4/vpcs/10251/subnets/11095",
      "PUT /v4/vpcs/10247/subnets/11092",
      "DELETE /v4/vpcs/10247/subnets/11092",
    ]);
  });

  test("create() POSTs {label, ipv4} to /vpcs/{id}/subnets", async () => {
    const h = harness();
    // Subnet create was never recorded; the recorded subnet record stands in for the answer.
    h.pool
      .intercept({ path: "/v4/vpcs/10251/subnets", method: "POST" })
      .reply(200, loadFixture("subnet.get.json").response as object, JSON_HEADERS);
    await expect(h.client.vpcs.subnets.create(10251, { label: "sn-1", ipv4: "10.0.0.0/24" })).resolves.toMatchObject({ id: 11095 });
    expect(h.calls()[0]).toMatchObject({ method: "POST", path: "/v4/vpcs/10251/subnets" });
    expect(JSON.parse(h.calls()[0]!.body as string)).toEqual({ label: "sn-1", ipv4: "10.0.0.0/24" });
  });
});

describe("Vpcs.ips", () => {
  test("list(vpcId) reads /vpcs/{id}/ips", async () => {
    const h = harness();
    serveFixture(h, "vpc_ip.list_by_vpc.json");
    const ips = await h.client.vpcs.ips.listAll(52789);
    expect(ips.length).toBeGreaterThan(0);
    expect(sent(h)).toEqual(["GET /v4/vpcs/52789/ips"]);
  });

  test("listAccount() reads /vpcs/ips by default and /networking/vpcs/ips with via: networking", async () => {
    const h = harness();
    serveFixture(h, "vpc_ip.list.json");
    serveFixture(h, "vpc_ip.list.json", "/networking/vpcs/ips");
    const viaVpcs = await h.client.vpcs.ips.listAccount().all();
    const viaNetworking = await h.client.vpcs.ips.listAccount({ via: "networking", pageSize: 100 }).all();
    expect(viaVpcs).toEqual(viaNetworking);
    expect(viaVpcs[0]).toMatchObject({ address: "192.168.0.2", nat_1_1: "139.144.221.98", prefix: 25 });
    expect(sent(h)).toEqual(["GET /v4/vpcs/ips", "GET /v4/networking/vpcs/ips"]);
    expect(h.calls()[1]!.searchParams).toEqual({ page: "1", page_size: "100" });
  });
});
