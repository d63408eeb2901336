/**
 * Coalesced reads: a burst of reads of one collection is one listing; a read alone is one GET; an
 * object missing from the listing is its own GET (so 404 still means gone); a listing that 404s
 * fails every read; any other listing failure falls back to GETs; writes invalidate.
 */
import { Coalescer, type CollectionReader } from "../../../sdk/core/coalesce";
import { NotFoundError } from "../../../sdk/core/errors";

interface Item {
  id: number;
  v: string;
}

/** A collection whose calls are counted; timers (and the loop's next turns) fire when `flush()` is called. */
function setup(items: Item[]) {
  const calls = { list: 0, get: [] as string[] };
  const timers: Array<() => void> = [];
  const idles: Array<() => void> = [];
  let now = 0;
  const coalescer = new Coalescer({
    windowMs: 25,
    reuseMs: 1000,
    now: () => now,
    setTimer: (fn) => void timers.push(fn),
    onIdle: (fn) => void idles.push(fn),
  });
  const notFound = () => new NotFoundError(404, [{ reason: "Not found" }], { method: "GET", path: "/x" });
  const reader = (id: string, listFails?: unknown): CollectionReader<Item> => ({
    list: async () => {
      calls.list++;
      if (listFails) throw listFails;
      return items;
    },
    get: async () => {
      calls.get.push(id);
      const item = items.find((i) => String(i.id) === id);
      if (!item) throw notFound();
      return item;
    },
    idOf: (item) => String(item.id),
  });
  const read = (id: string, listFails?: unknown) => coalescer.read("c", id, reader(id, listFails));
  const settle = () => new Promise((r) => setImmediate(r));
  const flush = async () => {
    while (idles.length) idles.shift()!();
    while (timers.length) timers.shift()!();
    await settle();
  };
  /** The event loop's next turn, the window still open. */
  const turn = async () => {
    while (idles.length) idles.shift()!();
    await settle();
  };
  return { coalescer, calls, read, flush, turn, timers, notFound, advance: (ms: number) => (now += ms) };
}

test("reads that arrive together are served by one listing", async () => {
  const t = setup([
    { id: 1, v: "a" },
    { id: 2, v: "b" },
    { id: 3, v: "c" },
  ]);
  const reads = ["1", "2", "3"].map((id) => t.read(id));
  await t.flush();
  expect(await Promise.all(reads)).toEqual([
    { id: 1, v: "a" },
    { id: 2, v: "b" },
    { id: 3, v: "c" },
  ]);
  expect(t.calls).toEqual({ list: 1, get: [] });
  expect(t.coalescer.stats).toEqual({ reads: 3, listings: 1, fromListing: 3, gets: 0 });
});

test("a burst does not wait out the window: once a second read is in, the batch is listed at the loop's next turn", async () => {
  const t = setup([
    { id: 1, v: "a" },
    { id: 2, v: "b" },
    { id: 3, v: "c" },
  ]);
  const reads = [t.read("1"), t.read("2")];
  await t.turn();
  expect(t.calls).toEqual({ list: 1, get: [] });
  // A read after the batch closed takes its object from the same listing; the window's end opens nothing.
  const late = t.read("3");
  await t.flush();
  expect(await Promise.all([...reads, late])).toEqual([
    { id: 1, v: "a" },
    { id: 2, v: "b" },
    { id: 3, v: "c" },
  ]);
  expect(t.calls).toEqual({ list: 1, get: [] });
});

test("a read alone waits out the window, so that a second one can still make it a listing", async () => {
  const t = setup([
    { id: 1, v: "a" },
    { id: 2, v: "b" },
  ]);
  const first = t.read("1");
  await t.turn();
  expect(t.calls).toEqual({ list: 0, get: [] });
  const second = t.read("2");
  await t.flush();
  expect(await Promise.all([first, second])).toEqual([
    { id: 1, v: "a" },
    { id: 2, v: "b" },
  ]);
  expect(t.calls).toEqual({ list: 1, get: [] });
});

test("a read alone is one GET, not a listing", async () => {
  const t = setup([{ id: 1, v: "a" }]);
  const read = t.read("1");
  await t.flush();
  expect(await read).toEqual({ id: 1, v: "a" });
  expect(t.calls).toEqual({ list: 0, get: ["1"] });
});

test("an object the listing lacks is read on its own, and its 404 says it is gone", async () => {
  const t = setup([{ id: 1, v: "a" }]);
  const present = t.read("1");
  const gone = t.read("2").catch((e: unknown) => e);
  await t.flush();
  expect(await present).toEqual({ id: 1, v: "a" });
  expect(await gone).toBeInstanceOf(NotFoundError);
  expect(t.calls).toEqual({ list: 1, get: ["2"] });
});

test("reads arriving while the listing is in flight, or shortly after, share it; later ones list again", async () => {
  const t = setup([
    { id: 1, v: "a" },
    { id: 2, v: "b" },
  ]);
  const first = [t.read("1"), t.read("2")];
  await t.flush();
  const joined = t.read("1"); // the listing is done, within reuseMs
  expect(await Promise.all([...first, joined])).toHaveLength(3);
  expect(t.calls.list).toBe(1);
  t.advance(2000); // past reuseMs: a new burst
  const later = [t.read("1"), t.read("2")];
  await t.flush();
  await Promise.all(later);
  expect(t.calls.list).toBe(2);
  expect(t.calls.get).toEqual([]);
});

test("a write invalidates: the next reads wait for a listing requested after it", async () => {
  const t = setup([
    { id: 1, v: "a" },
    { id: 2, v: "b" },
  ]);
  const first = [t.read("1"), t.read("2")];
  await t.flush();
  await Promise.all(first);
  t.coalescer.invalidate("c");
  const after = [t.read("1"), t.read("2")];
  await t.flush();
  await Promise.all(after);
  expect(t.calls.list).toBe(2);
});

test("a listing that 404s (the collection is gone) fails every read; another failure falls back to GETs", async () => {
  const gone = setup([{ id: 1, v: "a" }]);
  const reads = [gone.read("1", gone.notFound()), gone.read("2", gone.notFound())].map((r) => r.catch((e: unknown) => e));
  await gone.flush();
  for (const read of reads) expect(await read).toBeInstanceOf(NotFoundError);
  expect(gone.calls.get).toEqual([]);

  const broken = setup([{ id: 1, v: "a" }]);
  const fallback = [broken.read("1", new Error("503")), broken.read("2", new Error("503"))].map((r) => r.catch((e: unknown) => e));
  await broken.flush();
  expect(await fallback[0]).toEqual({ id: 1, v: "a" });
  expect(await fallback[1]).toBeInstanceOf(NotFoundError);
  expect(broken.calls.get.sort()).toEqual(["1", "2"]);
});

test("list() shares the listing the lookups around it use, whatever this process wrote since; forget() makes the next list anew", async () => {
  const t = setup([
    { id: 1, v: "a" },
    { id: 2, v: "b" },
  ]);
  const reader = { list: async () => (t.calls.list++, [{ id: 1, v: "a" }]), idOf: (i: Item) => String(i.id) };
  const lists = await Promise.all([t.coalescer.list("c", reader), t.coalescer.list("c", reader)]);
  expect(lists).toEqual([[{ id: 1, v: "a" }], [{ id: 1, v: "a" }]]);
  expect(lists[0]).toBe(lists[1]); // one array per listing: a caller indexes it once
  expect(t.calls.list).toBe(1);
  t.coalescer.invalidate("c"); // a write of this process: another key's lookup still holds
  await t.coalescer.list("c", reader);
  expect(t.calls.list).toBe(1);
  t.coalescer.forget("c"); // a create whose answer was lost: look again
  await t.coalescer.list("c", reader);
  expect(t.calls.list).toBe(2);
});
