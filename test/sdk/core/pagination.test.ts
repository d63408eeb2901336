/** Pagination: lazy iteration, page size, filter header, bounded concurrency, order. */
import { z } from "zod";
import { ClientValidationError, NotFoundError } from "../../../sdk/core/errors";
import { mapBounded, Paginator } from "../../../sdk/core/pagination";
import { JSON_HEADERS, harness, page, sample } from "../helpers";

const Item = z.looseObject({ n: z.number() });
const items = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ n: from + i }));

/** Serves `pages` pages of `perPage` consecutive items at /v4/things, whatever page is asked. */
function serve(h: ReturnType<typeof harness>, pages: number, perPage: number) {
  h.pool
    .intercept({ path: (p) => p.startsWith("/v4/things"), method: "GET" })
    .reply((opts) => {
      const n = Number(new URL(opts.path, "http://x").searchParams.get("page"));
      return { statusCode: 200, data: page(items((n - 1) * perPage, perPage), n, pages, pages * perPage), responseOptions: JSON_HEADERS };
    })
    .persist();
}

describe("Paginator", () => {
  test("iterates every page in order with page_size=500 and stops at the last page", async () => {
    const h = harness();
    serve(h, 3, 2);
    const seen: number[] = [];
    for await (const item of h.client.paginate({ path: "/things", item: Item })) seen.push(item.n);
    expect(seen).toEqual([0, 1, 2, 3, 4, 5]);
    const calls = h.calls();
    expect(calls.map((c) => c.searchParams)).toEqual([
      { page: "1", page_size: "500" },
      { page: "2", page_size: "500" },
      { page: "3", page_size: "500" },
    ]);
  });

  test("is lazy: breaking out early fetches no further page", async () => {
    const h = harness();
    serve(h, 5, 2);
    for await (const item of h.client.paginate({ path: "/things", item: Item })) if (item.n === 1) break;
    expect(h.calls()).toHaveLength(1);
  });

  test("sends the filter as X-Filter on every page, plus custom page size and extra query", async () => {
    const h = harness();
    serve(h, 2, 1);
    const filter = { "+order_by": "created", "+order": "desc", action: "vpc_create" };
    const all = await h.client.paginate({ path: "/things", item: Item, query: { skip_ipv6_rdns: true } }, { filter, pageSize: 25 }).all();
    expect(all).toHaveLength(2);
    for (const call of h.calls()) {
      expect(JSON.parse(call.headers["x-filter"]!)).toEqual(filter);
      expect(call.searchParams).toMatchObject({ page_size: "25", skip_ipv6_rdns: "true" });
    }
  });

  test("an empty collection {data:[],page:1,pages:1,results:0} yields nothing after one request", async () => {
    const h = harness();
    h.pool
      .intercept({ path: (p) => p.startsWith("/v4/vpcs"), method: "GET" })
      .reply(200, { data: [], page: 1, pages: 1, results: 0 }, JSON_HEADERS)
      .times(2);
    const seen = [];
    for await (const vpc of h.client.vpcs.list()) seen.push(vpc);
    expect(seen).toEqual([]);
    await expect(h.client.vpcs.listAll()).resolves.toEqual([]);
    expect(h.calls()).toHaveLength(2);
  });

  test("page(n) returns the envelope", async () => {
    const h = harness();
    serve(h, 3, 2);
    await expect(h.client.paginate({ path: "/things", item: Item }).page(2)).resolves.toEqual({
      data: [{ n: 2 }, { n: 3 }],
      page: 2,
      pages: 3,
      results: 6,
    });
  });

  test("stops if the server answers a different page than asked (page past the end)", async () => {
    const h = harness();
    h.pool
      .intercept({ path: (p) => p.startsWith("/v4/things"), method: "GET" })
      .reply(200, page([{ n: 0 }], 1, 3, 3), JSON_HEADERS)
      .persist();
    const seen = [];
    for await (const item of h.client.paginate({ path: "/things", item: Item })) seen.push(item);
    expect(seen).toHaveLength(1);
  });

  test("all() keeps page order while fetching at most `concurrency` pages at once", async () => {
    const h = harness();
    let inFlight = 0;
    let maxInFlight = 0;
    h.pool
      .intercept({ path: (p) => p.startsWith("/v4/things"), method: "GET" })
      .reply((opts) => {
        const n = Number(new URL(opts.path, "http://x").searchParams.get("page"));
        return { statusCode: 200, data: page(items((n - 1) * 3, 3), n, 10, 30), responseOptions: JSON_HEADERS };
      })
      .persist();
    const paginator = h.client.paginate({ path: "/things", item: Item }, { concurrency: 3 });
    // Instrument page() to observe concurrency, with later pages answering faster than earlier ones.
    const original = paginator.page.bind(paginator);
    paginator.page = async (n = 1, signal?: AbortSignal) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, (11 - n) * 2));
      try {
        return await original(n, signal);
      } finally {
        inFlight--;
      }
    };
    const all = await paginator.all();
    expect(all.map((i) => i.n)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(maxInFlight).toBe(3);
    expect(h.calls()).toHaveLength(10);
  });

  test("all() rejects with the first failure", async () => {
    const h = harness();
    h.pool.intercept({ path: (p) => p.includes("page=1&"), method: "GET" }).reply(200, page([{ n: 0 }], 1, 4, 4), JSON_HEADERS);
    h.pool.intercept({ path: (p) => p.includes("page=3&"), method: "GET" }).reply(404, { errors: [{ reason: "Not found" }] }, JSON_HEADERS);
    h.pool
      .intercept({ path: (p) => /page=[24]&/.test(p), method: "GET" })
      .reply(200, page([{ n: 1 }], 2, 4, 4), JSON_HEADERS)
      .persist();
    await expect(h.client.paginate({ path: "/things", item: Item }).all()).rejects.toBeInstanceOf(NotFoundError);
  });

  test("page sizes outside 25..500 are refused before sending", () => {
    const h = harness();
    expect(() => h.client.paginate({ path: "/things", item: Item }, { pageSize: 1000 })).toThrow(ClientValidationError);
    expect(() => new Paginator({} as never, { path: "/x", item: Item }, { pageSize: 24 })).toThrow(/between 25 and 500/);
    expect(h.calls()).toHaveLength(0);
  });

  test("items are validated with the item schema", async () => {
    const h = harness();
    h.pool.intercept({ path: (p) => p.startsWith("/v4/vpcs"), method: "GET" }).reply(200, page([sample.vpc(1), { id: 2 }]), JSON_HEADERS);
    await expect(h.client.vpcs.listAll()).rejects.toThrow(/data\[1\]/);
  });
});

describe("mapBounded", () => {
  test("keeps input order and never exceeds the limit", async () => {
    let inFlight = 0;
    let max = 0;
    const out = await mapBounded([5, 1, 4, 2, 3], 2, async (x) => {
      inFlight++;
      max = Math.max(max, inFlight);
      await new Promise((r) => setTimeout(r, x));
      inFlight--;
      return x * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30]);
    expect(max).toBe(2);
    await expect(mapBounded([], 4, async (x) => x)).resolves.toEqual([]);
  });

  test("stops taking new items after a failure", async () => {
    const started: number[] = [];
    await expect(
      mapBounded([1, 2, 3, 4, 5, 6], 1, async (x) => {
        started.push(x);
        if (x === 2) throw new Error("boom");
        return x;
      }),
    ).rejects.toThrow("boom");
    expect(started).toEqual([1, 2]);
  });
});
