/**
 * The engine's shared writes on an in-memory document with a version: changes that arrive together
 * are one read and one write; a write built on an old read is noticed by its version and the lost
 * change written again; a change someone keeps erasing fails after its writes; a refused batch is
 * tried change by change, so one bad change fails alone.
 */
import { ApiError } from "../../../sdk/core/errors";
import { SharedWrites, UnconvergedWriteError, type SharedChange, type SharedDocument } from "../../../provider/engine/shared-writes";

interface Doc {
  version: number;
  items: string[];
}

const FAST = { gatherMs: 5, minWaitMs: 1, maxWaitMs: 3, maxWrites: 4, random: () => 0.5 };

/** A document in memory; `onWrite` may play another writer (it runs after the write lands). */
function store(onWrite: (doc: Doc) => void = () => {}) {
  let doc: Doc = { version: 1, items: ["foreign"] };
  const calls = { reads: 0, writes: 0 };
  const document: SharedDocument<Doc> = {
    what: "the list",
    read: async () => (calls.reads++, structuredClone(doc)),
    write: async (next) => {
      calls.writes++;
      if (next.items.includes("bad")) throw new ApiError(400, [{ reason: "bad item" }], { method: "PUT", path: "/list" });
      doc = { version: doc.version + 1, items: [...next.items] };
      const answer = structuredClone(doc);
      onWrite(doc);
      return answer;
    },
    version: (d) => d.version,
    same: (a, b) => a.version === b.version,
  };
  return { document, calls, current: () => doc, set: (d: Doc) => (doc = d) };
}

const add = (item: string): SharedChange<Doc> => ({
  what: item,
  holds: (d) => d.items.includes(item),
  apply: (d) => (d.items.includes(item) ? d : { ...d, items: [...d.items, item] }),
});

const signal = () => AbortSignal.timeout(10_000);

test("changes that arrive together are one read, one write and two confirming reads", async () => {
  const s = store();
  const writes = new SharedWrites(() => {}, FAST);
  await Promise.all(["a", "b", "c", "d"].map((item) => writes.submit("k", s.document, add(item), signal())));
  expect(s.current().items).toEqual(["foreign", "a", "b", "c", "d"]);
  expect(s.calls).toEqual({ reads: 3, writes: 1 });
  expect(writes.stats).toMatchObject({ writes: 1, interleaved: 0, rewrites: 0 });
});

test("a change that arrives while a batch confirms joins it after a read: its write follows that read, and one confirmation serves both", async () => {
  const s = store();
  const writes = new SharedWrites(() => {}, { ...FAST, minWaitMs: 20, maxWaitMs: 20 });
  const first = writes.submit("k", s.document, add("a"), signal());
  await new Promise((resolve) => setTimeout(resolve, FAST.gatherMs + 10)); // the batch of "a" is confirming
  await Promise.all([first, writes.submit("k", s.document, add("b"), signal())]);
  expect(s.current().items).toEqual(["foreign", "a", "b"]);
  // read, write a, read (b joins), write b, two confirming reads: not two rounds of 4.
  expect(s.calls).toEqual({ reads: 4, writes: 2 });
});

test("a write on an old read is seen by its version, and the erased change is written again", async () => {
  const lines: string[] = [];
  let interfere = true;
  const s = store();
  const writes = new SharedWrites((line) => lines.push(line), FAST);
  // Another writer's stale PUT lands right after ours: its version skips ours and erases our item.
  const original = s.document.write;
  s.document.write = async (next) => {
    const answer = await original(next, signal());
    if (interfere) {
      interfere = false;
      s.set({ version: answer.version + 1, items: ["foreign", "theirs"] });
      return { ...answer, version: answer.version + 1 };
    }
    return answer;
  };
  await writes.submit("k", s.document, add("mine"), signal());
  expect(s.current().items).toEqual(["foreign", "theirs", "mine"]);
  expect(writes.stats).toMatchObject({ interleaved: 1, rewrites: 1 });
  expect(lines.join("\n")).toMatch(/someone else wrote in between[\s\S]*no longer there after a write by someone else/);
});

test("a change someone keeps erasing fails after its writes, saying so", async () => {
  const s = store((doc) => (doc.items = ["foreign"]));
  const writes = new SharedWrites(() => {}, FAST);
  await expect(writes.submit("k", s.document, add("mine"), signal())).rejects.toThrow(UnconvergedWriteError);
  expect(s.calls.writes).toBe(FAST.maxWrites + 1); // the first write, then maxWrites writes again
});

test("a batch the API refuses is tried change by change: the bad change fails alone", async () => {
  const s = store();
  const writes = new SharedWrites(() => {}, FAST);
  const results = await Promise.allSettled(["a", "bad", "c"].map((item) => writes.submit("k", s.document, add(item), signal())));
  expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  expect(s.current().items).toEqual(["foreign", "a", "c"]);
});

test("a change refused on the first read it meets fails alone; the rest of its batch is written", async () => {
  const s = store();
  const writes = new SharedWrites(() => {}, FAST);
  const taken: SharedChange<Doc> = { ...add("foreign"), refuse: (d) => (d.items.includes("foreign") ? new Error("taken") : undefined) };
  const results = await Promise.allSettled([
    writes.submit("k", s.document, taken, signal()),
    writes.submit("k", s.document, add("a"), signal()),
  ]);
  expect(results.map((r) => r.status)).toEqual(["rejected", "fulfilled"]);
  expect(s.current().items).toEqual(["foreign", "a"]);
});
