/** Paging bounds and the X-Filter header (api-facts "Collection envelope", P8-2). */
import { FILTER_FIELD, PAGE_SIZE_DEFAULT, REASONS } from "../../../emulator";
import { applyFilter, compileFilter } from "../../../emulator/core/filter";
import { paginate } from "../../../emulator/core/pagination";
import { onlyError, startTestEmulator, vpcBody, type TestEmulator } from "../helpers";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.control.reset());

describe("paging", () => {
  test.each(["24", "501", "0", "abc", "100.5", "-1", ""])("page_size=%s is 400 with field page_size", async (size) => {
    const r = await emu.get("/regions/availability", { query: { page_size: size } });
    expect(r.status).toBe(400);
    expect(onlyError(r)).toEqual({ reason: REASONS.pageSizeInvalid, field: "page_size" });
  });

  test.each(["0", "-1", "x", "1.5", ""])("page=%s is 400 with field page", async (page) => {
    const r = await emu.get("/regions", { query: { page } });
    expect(r.status).toBe(400);
    expect(onlyError(r)).toEqual({ reason: REASONS.pageInvalid, field: "page" });
  });

  test("bounds 25 and 500 are accepted", async () => {
    expect((await emu.get("/regions/availability", { query: { page_size: 25 } })).body.data).toHaveLength(25);
    expect((await emu.get("/regions/availability", { query: { page_size: 500 } })).body.data).toHaveLength(299);
  });

  test("the default page size is 100", async () => {
    const r = await emu.get("/regions/availability");
    expect(r.body).toMatchObject({ page: 1, pages: 3, results: 299 });
    expect(r.body.data).toHaveLength(PAGE_SIZE_DEFAULT);
  });

  test("a page past the end answers the last page", async () => {
    const last = await emu.get("/regions/availability", { query: { page: 3 } });
    const beyond = await emu.get("/regions/availability", { query: { page: 40 } });
    expect(beyond.body).toEqual(last.body);
    expect(beyond.body).toMatchObject({ page: 3, pages: 3, results: 299 });
    expect(beyond.body.data).toHaveLength(99);
  });

  test("an empty collection is page 1 of 1", async () => {
    const r = await emu.get("/vpcs", { query: { page: 7 } });
    expect(r.body).toEqual({ data: [], page: 1, pages: 1, results: 0 });
  });

  test("paginate keeps order and counts", () => {
    const items = Array.from({ length: 51 }, (_, i) => i);
    expect(paginate(items, { page: 3, pageSize: 25 })).toEqual({ data: [50], page: 3, pages: 3, results: 51 });
  });
});

describe("X-Filter", () => {
  async function seedVpcs() {
    for (const [label, region] of [
      ["alpha", "es-mad"],
      ["beta", "us-iad"],
      ["gamma", "us-iad"],
    ] as const) {
      expect((await emu.post("/vpcs", vpcBody(label, { region, description: `${label} net` }))).status).toBe(200);
    }
  }
  const labels = (r: { body: { data: Array<{ label: string }> } }) => r.body.data.map((v) => v.label);
  const filtered = (filter: unknown) => emu.get("/vpcs", { headers: { "X-Filter": JSON.stringify(filter) } });

  test("plain equality", async () => {
    await seedVpcs();
    expect(labels(await filtered({ region: "us-iad" }))).toEqual(["beta", "gamma"]);
    expect((await filtered({ region: "us-iad" })).body).toMatchObject({ results: 2, pages: 1 });
  });

  test("+or, +and, +neq, +contains", async () => {
    await seedVpcs();
    expect(labels(await filtered({ "+or": [{ label: "alpha" }, { label: "gamma" }] }))).toEqual(["alpha", "gamma"]);
    expect(labels(await filtered({ "+and": [{ region: "us-iad" }, { label: { "+neq": "beta" } }] }))).toEqual(["gamma"]);
    expect(labels(await filtered({ description: { "+contains": "mm" } }))).toEqual(["gamma"]);
  });

  test("+gt/+gte/+lt/+lte on numbers and +order_by/+order", async () => {
    await seedVpcs();
    const ids = (await emu.get("/vpcs")).body.data.map((v: { id: number }) => v.id) as number[];
    expect(labels(await filtered({ id: { "+gt": ids[0] } }))).toEqual(["beta", "gamma"]);
    expect(labels(await filtered({ id: { "+gte": ids[1], "+lte": ids[1] } }))).toEqual(["beta"]);
    expect(labels(await filtered({ id: { "+lt": ids[1] } }))).toEqual(["alpha"]);
    expect(labels(await filtered({ "+order_by": "label", "+order": "desc" }))).toEqual(["gamma", "beta", "alpha"]);
  });

  test("dotted fields on events", async () => {
    await seedVpcs();
    const vpcs = (await emu.get("/vpcs")).body.data;
    const r = await emu.get("/account/events", {
      headers: { "X-Filter": JSON.stringify({ "entity.id": vpcs[1].id, "entity.type": "vpc" }) },
    });
    expect(r.body.data.map((e: { action: string }) => e.action)).toEqual(["vpc_create"]);
    const nested = await emu.get("/account/events", { headers: { "X-Filter": JSON.stringify({ entity: { id: vpcs[1].id } }) } });
    expect(nested.body.results).toBe(1);
  });

  test.each([
    [{ foo: 1 }, REASONS.cannotFilterOn("foo")],
    [{ "+or": [{ bar: 1 }] }, REASONS.cannotFilterOn("bar")],
    [{ "+order_by": "subnets" }, REASONS.cannotFilterOn("subnets")],
    [{ label: { "+like": "a" } }, REASONS.filterBadOperator("+like")],
    [{ "+order": "sideways" }, REASONS.filterBadOrder],
  ])("a bad filter %j is 400 on X-Filter", async (filter, reason) => {
    const r = await filtered(filter);
    expect(r.status).toBe(400);
    expect(onlyError(r)).toEqual({ reason, field: FILTER_FIELD });
  });

  test.each(["{not json", "[1,2]", "42"])("malformed header %s is 400 on X-Filter", async (header) => {
    const r = await emu.get("/vpcs", { headers: { "X-Filter": header } });
    expect(r.status).toBe(400);
    expect(onlyError(r)).toEqual({ reason: REASONS.filterInvalidJson, field: FILTER_FIELD });
  });

  test("the recorded bad-filter text is reproduced", () => {
    expect(REASONS.cannotFilterOn("foo")).toBe("Cannot filter on foo"); // fixtures/error.400.bad_filter.json
  });

  test("a value filter on a list field matches an item whose list holds it (tags), as getInstances({ tag }) asks", () => {
    const items = [{ tags: ["app", "quickstart"] }, { tags: ["db"] }, { tags: [] }];
    // Before: nothing matched, since the list itself was compared with the value.
    expect(applyFilter(items, compileFilter('{"tags":"quickstart"}', ["tags"]))).toEqual([{ tags: ["app", "quickstart"] }]);
    expect(applyFilter(items, compileFilter('{"+or":[{"tags":"db"},{"tags":"app"}]}', ["tags"]))).toHaveLength(2);
  });

  test("filters compare ids given as strings or numbers alike", () => {
    const items = [{ entity: { id: 5 } }, { entity: { id: 6 } }];
    expect(applyFilter(items, compileFilter('{"entity.id":"6"}', ["entity.id"]))).toEqual([{ entity: { id: 6 } }]);
  });
});
