/** `Regions`: paths, methods and parsing, replaying recorded exchanges. */
import { Region } from "../../../sdk/resources/regions";
import { JSON_HEADERS, harness, loadFixture, serveFixture } from "../helpers";

describe("Regions", () => {
  test("list() iterates GET /regions (recorded: 25 regions)", async () => {
    const h = harness();
    serveFixture(h, "region.list.json");
    const ids: string[] = [];
    for await (const region of h.client.regions.list()) ids.push(region.id);
    expect(ids).toHaveLength(25);
    expect(h.calls()[0]).toMatchObject({ method: "GET", path: "/v4/regions", searchParams: { page: "1", page_size: "500" } });
  });

  test("listAll() collects; get(id) reads GET /regions/{id}", async () => {
    const h = harness();
    const f = serveFixture(h, "region.list.json");
    const all = await h.client.regions.listAll();
    expect(all.map((r) => r.id)).toEqual((f.response as { data: Array<{ id: string }> }).data.map((r) => r.id));
    const one = all[0]!;
    h.pool.intercept({ path: `/v4/regions/${one.id}`, method: "GET" }).reply(200, one, JSON_HEADERS);
    await expect(h.client.regions.get(one.id)).resolves.toEqual(Region.parse(one));
  });

  test("availability.listAll() follows the recorded 3 pages (299 records) in order", async () => {
    const h = harness();
    const first = loadFixture("region_availability.list.json").response as { data: unknown[]; pages: number; results: number };
    const third = loadFixture("region_availability.list.page3.json").response as { data: unknown[] };
    const byPage: Record<string, unknown> = {
      "1": first,
      // Page 2 was not recorded: page 1's records stand in, renumbered.
      "2": { ...first, page: 2 },
      "3": third,
    };
    h.pool
      .intercept({ path: (p) => p.startsWith("/v4/regions/availability?"), method: "GET" })
      .reply((opts) => ({
        statusCode: 200,
        data: byPage[new URL(opts.path, "http://x").searchParams.get("page")!] as object,
        responseOptions: JSON_HEADERS,
      }))
      .persist();
    const all = await h.client.regions.availability.listAll();
    expect(first.pages).toBe(3);
    expect(all).toHaveLength(first.results);
    expect(all.slice(200)).toEqual(third.data);
    expect(
      h
        .calls()
        .map((c) => c.searchParams.page)
        .sort(),
    ).toEqual(["1", "2", "3"]);
  });

  test("availability.get(id) reads GET /regions/{id}/availability, an array", async () => {
    const h = harness();
    const records = [
      { region: "us-east", plan: "gpu-rtx6000-1.1", available: false },
      { region: "us-east", plan: "premium4096.7", available: true },
    ];
    h.pool.intercept({ path: "/v4/regions/us-east/availability", method: "GET" }).reply(200, records, JSON_HEADERS);
    await expect(h.client.regions.availability.get("us-east")).resolves.toEqual(records);
  });

  test("region ids are encoded as one path segment", async () => {
    const h = harness();
    h.pool.intercept({ path: "/v4/regions/a%2Fb", method: "GET" }).reply(404, { errors: [{ reason: "Not found" }] }, JSON_HEADERS);
    await expect(h.client.regions.get("a/b")).rejects.toMatchObject({ status: 404, path: "/regions/a%2Fb" });
  });
});
