/**
 * The request log is a ring of the most recent requests: a long-running emulator keeps the last
 * `requestLogSize` (default 10,000), never every request it served.
 */
import { DEFAULT_REQUEST_LOG_SIZE, RequestLog } from "../../../emulator/core/request-log";
import { startTestEmulator } from "../helpers";

const at = "2026-01-01T00:00:00.000Z";
const fill = (log: RequestLog, count: number, from = 0) => {
  for (let i = from; i < from + count; i++) log.start({}, "GET", `/v4/r/${i}`, at);
};
const paths = (log: RequestLog) => log.list().map((e) => e.path);

test("keeps the most recent entries, oldest first, and counts what it dropped", () => {
  const log = new RequestLog(3);
  fill(log, 2);
  expect([paths(log), log.dropped]).toEqual([["/v4/r/0", "/v4/r/1"], 0]);
  fill(log, 5, 2);
  expect([paths(log), log.dropped]).toEqual([["/v4/r/4", "/v4/r/5", "/v4/r/6"], 4]);
});

test("holds 10,000 requests by default and no more", () => {
  const log = new RequestLog();
  expect(log.capacity).toBe(DEFAULT_REQUEST_LOG_SIZE);
  expect(DEFAULT_REQUEST_LOG_SIZE).toBe(10_000);
  fill(log, 10_005);
  const kept = paths(log);
  expect([kept.length, kept[0], kept.at(-1), log.dropped]).toEqual([10_000, "/v4/r/5", "/v4/r/10004", 5]);
});

test("an entry pushed out while its request is in flight is still completed, and never comes back", () => {
  const log = new RequestLog(2);
  const request = {};
  const entry = log.start(request, "POST", "/v4/first", at);
  fill(log, 2);
  log.entryOf(request)!.status = 200;
  expect(entry.status).toBe(200);
  expect(paths(log)).toEqual(["/v4/r/0", "/v4/r/1"]);
});

test("an in-flight entry kept in the ring is completed in place (the status shows in the list)", () => {
  const log = new RequestLog(2);
  const request = {};
  log.start(request, "GET", "/v4/slow", at);
  log.entryOf(request)!.status = 503;
  expect(log.list().map((e) => [e.path, e.status])).toEqual([["/v4/slow", 503]]);
});

test("enlarging keeps every entry; shrinking keeps the newest; clear starts over", () => {
  const log = new RequestLog(3);
  fill(log, 5);
  log.resize(10);
  fill(log, 2, 5);
  expect(paths(log)).toEqual(["/v4/r/2", "/v4/r/3", "/v4/r/4", "/v4/r/5", "/v4/r/6"]);
  log.resize(2);
  expect([paths(log), log.capacity, log.dropped]).toEqual([["/v4/r/5", "/v4/r/6"], 2, 5]);
  fill(log, 1, 7);
  expect(paths(log)).toEqual(["/v4/r/6", "/v4/r/7"]);
  log.clear();
  expect([paths(log), log.dropped]).toEqual([[], 0]);
});

test("size 0 keeps nothing; a size that is not a whole number ≥ 0 is refused", () => {
  const log = new RequestLog(0);
  fill(log, 3);
  expect([paths(log), log.dropped]).toEqual([[], 3]);
  expect(() => new RequestLog(-1)).toThrow(/requestLogSize/);
  expect(() => new RequestLog(1.5)).toThrow(/requestLogSize/);
  expect(() => log.resize(-1)).toThrow(/requestLogSize/);
});

test("the emulator's `requestLogSize` bounds what GET /__emulator/requests lists over HTTP", async () => {
  const emu = await startTestEmulator({ requestLogSize: 3 });
  try {
    for (let i = 0; i < 5; i++) expect((await emu.get(`/vpcs?page=${i + 1}`)).status).toBe(200);
    const listed = await emu.ctl("GET", "/requests");
    expect(listed.body.map((e: { path: string }) => e.path)).toEqual(["/v4/vpcs?page=3", "/v4/vpcs?page=4", "/v4/vpcs?page=5"]);
  } finally {
    await emu.close();
  }
});
