/**
 * The generic waiter, replayed on recorded sequences of states (fixtures from test/fixtures)
 * with a fake clock advanced by a fake sleep, so every run is instant and deterministic.
 */
import { AbortError, ApiError, WaitError } from "../../../sdk/core/errors";
import { waitFor } from "../../../sdk/core/waiters";
import { Event } from "../../../sdk/resources/events";
import { load } from "../../support/fixtures";

const fixture = (name: string) => load(name).response;

/** A poll function that replays `states` (the last one repeats) and a clock driven by `sleep`. */
function replay<T>(states: T[]) {
  let clock = 0;
  let polls = 0;
  const slept: number[] = [];
  return {
    poll: async () => states[Math.min(polls++, states.length - 1)]!,
    sleep: async (ms: number) => {
      slept.push(ms);
      clock += ms;
    },
    now: () => clock,
    slept,
    polls: () => polls,
  };
}

type Db = { status: string };
const dbStatus = (name: string): Db => ({ status: fixture(name).status });

describe("waitFor", () => {
  test("backs off from firstIntervalMs by half again a poll, up to intervalMs and never past the deadline", async () => {
    const r = replay<Db>([{ status: "provisioning" }]);
    await expect(
      waitFor({ ...r, done: (db) => db.status === "active", firstIntervalMs: 1000, intervalMs: 3000, timeoutMs: 10_000 }),
    ).rejects.toThrow(WaitError);
    expect(r.slept).toEqual([1000, 1500, 2250, 3000, 2250]);
  });

  test("resolves the final value after a recorded database sequence provisioning → active", async () => {
    const r = replay<Db>([
      dbStatus("database_mysql.create.json"),
      dbStatus("database_mysql.create.json"),
      dbStatus("database_mysql.get.json"),
    ]);
    const progress: Array<[string, number]> = [];
    const final = await waitFor({
      ...r,
      done: (db) => db.status === "active",
      failed: (db) => (db.status === "failed" ? "database failed" : undefined),
      progress: (db, elapsed) => progress.push([db.status, elapsed]),
      intervalMs: 1000,
      timeoutMs: 60_000,
    });
    expect(final.status).toBe("active");
    expect(progress).toEqual([
      ["provisioning", 0],
      ["provisioning", 1000],
      ["active", 2000],
    ]);
    expect(r.slept).toEqual([1000, 1000]);
  });

  test("an update sequence updating → active (recorded) is awaited the same way", async () => {
    const r = replay<Db>([
      dbStatus("database_mysql.update.json"),
      dbStatus("database_mysql.get.during_patch.json"),
      dbStatus("database_mysql.get.after_update.json"),
    ]);
    await expect(waitFor({ ...r, done: (db) => db.status === "active", intervalMs: 10, timeoutMs: 1000 })).resolves.toEqual({
      status: "active",
    });
    expect(r.polls()).toBe(3);
  });

  test("recorded events: notification → finished, with percent progress", async () => {
    const first = Event.parse(fixture("event.list.database_create.notification.json").data[0]);
    const last = Event.parse(fixture("event.list.database_create.finished.json").data[0]);
    const r = replay([first, last]);
    const percents: Array<number | null> = [];
    const event = await waitFor({
      ...r,
      done: (e) => e.status === "finished",
      failed: (e) => (e.status === "failed" ? `event ${e.id} failed` : undefined),
      progress: (e) => percents.push(e.percent_complete),
      intervalMs: 5,
      timeoutMs: 100,
    });
    expect(event.id).toBe(first.id);
    expect(percents).toEqual([null, 100]);
  });

  test("fails fast on a failure state, without sleeping again", async () => {
    const r = replay<Db>([{ status: "provisioning" }, { status: "failed" }, { status: "active" }]);
    const error = (await waitFor({
      ...r,
      done: (db) => db.status === "active",
      failed: (db) => (db.status === "failed" ? "database 12 failed" : undefined),
      intervalMs: 100,
      timeoutMs: 10_000,
      what: "database 12 to become active",
    }).catch((e: unknown) => e)) as WaitError;
    expect(error).toBeInstanceOf(WaitError);
    expect(error.kind).toBe("failed");
    expect(error.message).toBe("gave up waiting for database 12 to become active: database 12 failed");
    expect(error.last).toEqual({ status: "failed" });
    expect(r.polls()).toBe(2);
    expect(r.slept).toEqual([100]);
  });

  test("times out at the deadline, never sleeping past it", async () => {
    const r = replay<Db>([{ status: "pending_upload" }]);
    const error = (await waitFor({ ...r, done: (i) => i.status === "available", intervalMs: 400, timeoutMs: 1000, what: "image" }).catch(
      (e: unknown) => e,
    )) as WaitError;
    expect(error).toBeInstanceOf(WaitError);
    expect(error.kind).toBe("timeout");
    expect(error.message).toBe("timed out after 1000 ms waiting for image");
    expect(r.slept).toEqual([400, 400, 200]);
    expect(r.now()).toBe(1000);
    expect(r.polls()).toBe(4);
  });

  test("a done value on the first poll returns at once", async () => {
    const r = replay([{ status: "available" }]);
    await waitFor({ ...r, done: () => true, timeoutMs: 0 });
    expect(r.slept).toEqual([]);
  });

  test("a poll that failed transiently (a 500 the http layer gave up on) costs one interval, not the wait", async () => {
    const clock = { t: 0 };
    const outcomes: Array<Error | string> = [ApiError.from(500, [{ reason: "oops" }], { method: "GET", path: "/x" }), "creating", "active"];
    const value = await waitFor({
      poll: async () => {
        const next = outcomes.shift()!;
        if (next instanceof Error) throw next;
        return next;
      },
      done: (s) => s === "active",
      intervalMs: 10,
      timeoutMs: 1_000,
      now: () => clock.t,
      sleep: async (ms) => void (clock.t += ms),
    });
    expect(value).toBe("active");
    expect(clock.t).toBe(20);
  });

  test("poll errors propagate", async () => {
    await expect(waitFor({ poll: async () => Promise.reject(new Error("404")), done: () => true, timeoutMs: 10 })).rejects.toThrow("404");
  });

  test("an aborted signal stops the wait with AbortError", async () => {
    const controller = new AbortController();
    const r = replay([{ status: "creating" }]);
    const sleep = async (ms: number, signal?: AbortSignal) => {
      await r.sleep(ms);
      controller.abort();
      if (signal?.aborted) throw new Error("aborted");
    };
    await expect(
      waitFor({ ...r, sleep, done: () => false, intervalMs: 1, timeoutMs: 1000, signal: controller.signal }),
    ).rejects.toBeInstanceOf(AbortError);
    expect(r.polls()).toBe(1);
  });

  test("the real timer is used by default: a poll waits its interval in real time", async () => {
    let n = 0;
    const controller = new AbortController();
    const waiting = waitFor({
      poll: async () => ++n,
      done: (v) => v === 3,
      intervalMs: 60_000,
      timeoutMs: 600_000,
      signal: controller.signal,
    });
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    // Polled once, then sleeping a real minute before the next poll (a fake sleep would have polled three times by now).
    expect(n).toBe(1);
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(AbortError);
    expect(n).toBe(1);
  });
});
