/** The injectable clock: scale, manual advance, scheduling, API timestamp format. */
import { Clock, formatTimestamp, parseTimestamp } from "../../../emulator/core/clock";
import { startTestEmulator, vpcBody, type TestEmulator } from "../helpers";

function fakeRealTime(startMs = Date.UTC(2024, 4, 1, 12, 0, 0)) {
  let now = startMs;
  return { realNow: () => now, pass: (ms: number) => void (now += ms) };
}

describe("Clock", () => {
  test("formats timestamps like the API: UTC, no zone, no milliseconds", () => {
    expect(formatTimestamp(Date.UTC(2024, 4, 1, 12, 0, 0, 789))).toBe("2024-05-01T12:00:00");
    expect(parseTimestamp("2024-05-01T12:00:00")).toBe(Date.UTC(2024, 4, 1, 12, 0, 0));
  });

  test("scale makes emulated time run faster than real time", () => {
    const real = fakeRealTime();
    const clock = new Clock({ scale: 60, realNow: real.realNow, tickMs: 0 });
    const start = clock.nowMs();
    real.pass(1000);
    expect(clock.nowMs() - start).toBe(60_000);
    clock.setScale(1);
    real.pass(1000);
    expect(clock.nowMs() - start).toBe(61_000); // the change applies from now on, not retroactively
    clock.setScale(0);
    real.pass(5000);
    expect(clock.nowMs() - start).toBe(61_000); // scale 0 freezes time
  });

  test("advance moves time forward and refuses to go back", () => {
    const real = fakeRealTime();
    const clock = new Clock({ realNow: real.realNow, tickMs: 0 });
    const start = clock.nowMs();
    clock.advance(3_600_000);
    expect(clock.nowMs() - start).toBe(3_600_000);
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.setScale(-2)).toThrow(RangeError);
  });

  test("scheduled work runs once due, earliest first, and can be cancelled", () => {
    const real = fakeRealTime();
    const clock = new Clock({ realNow: real.realNow, tickMs: 0 });
    const ran: string[] = [];
    clock.after(2000, () => ran.push("b"));
    clock.after(1000, () => ran.push("a"));
    const cancelled = clock.after(1500, () => ran.push("never"));
    clock.at(clock.nowMs() + 2000, () => ran.push("c")); // same time as b, scheduled later
    expect(clock.cancel(cancelled)).toBe(true);
    clock.runDue();
    expect(ran).toEqual([]);
    clock.advance(1000);
    expect(ran).toEqual(["a"]);
    real.pass(1000); // real time passing makes work due too, picked up by the next check
    expect(clock.runDue()).toBe(2);
    expect(ran).toEqual(["a", "b", "c"]);
    expect(clock.pending).toBe(0);
  });

  test("a task runs 'at' its due time, so follow-ups chain from it and run in the same pass when due", () => {
    const clock = new Clock({ tickMs: 0, scale: 0 });
    const start = clock.nowMs();
    const ranAt: number[] = [];
    clock.after(10, () => {
      ranAt.push(clock.nowMs() - start);
      clock.after(5, () => ranAt.push(clock.nowMs() - start));
      clock.after(500, () => ranAt.push(clock.nowMs() - start));
    });
    clock.advance(100);
    expect(ranAt).toEqual([10, 15]);
    expect(clock.nowMs() - start).toBe(100); // outside tasks, now is now again
    expect(clock.pending).toBe(1);
  });

  test("a task scheduled in the past runs at its scheduling time, not earlier", () => {
    const clock = new Clock({ tickMs: 0, scale: 0 });
    const now = clock.nowMs();
    let seen = 0;
    clock.at(now - 60_000, () => (seen = clock.nowMs()));
    clock.runDue();
    expect(seen).toBe(now);
  });

  test("afterRun is told about passes that ran work, and only those", () => {
    let passes = 0;
    const clock = new Clock({ tickMs: 0, scale: 0, afterRun: () => passes++ });
    clock.runDue();
    clock.after(10, () => undefined);
    clock.after(20, () => undefined);
    clock.advance(5);
    expect(passes).toBe(0);
    clock.advance(100);
    expect(passes).toBe(1);
  });

  test("the timer runs due work without any request", async () => {
    const clock = new Clock({ tickMs: 10 });
    let ran = false;
    clock.after(20, () => (ran = true));
    await new Promise((r) => setTimeout(r, 80));
    expect(ran).toBe(true);
    clock.dispose();
  });
});

describe("clock through the emulator", () => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ timeScale: 3600 });
  });
  afterAll(() => emu.close());

  test("the start-up scale is reported and time runs that much faster", async () => {
    const before = emu.control.getClock();
    expect(before.scale).toBe(3600);
    await new Promise((r) => setTimeout(r, 50));
    const after = emu.control.getClock();
    expect(after.epochMs - before.epochMs).toBeGreaterThanOrEqual(50 * 3600 * 0.9);
  });

  test("POST /clock sets the scale and advances; timestamps of new objects follow", async () => {
    const frozen = await emu.ctl("POST", "/clock", { scale: 0 });
    expect(frozen.status).toBe(200);
    expect(frozen.body.scale).toBe(0);
    const created = (await emu.post("/vpcs", vpcBody("t1"))).body.created as string;
    expect(created).toBe(frozen.body.now);
    const advanced = await emu.ctl("POST", "/clock", { advanceMs: 86_400_000 });
    expect(advanced.body.epochMs - frozen.body.epochMs).toBe(86_400_000);
    const later = (await emu.post("/vpcs", vpcBody("t2"))).body.created as string;
    expect(parseTimestamp(later) - parseTimestamp(created)).toBe(86_400_000);
    const read = await emu.ctl("GET", "/clock");
    expect(read.body).toMatchObject({ now: advanced.body.now, scale: 0 });
    expect((await emu.ctl("POST", "/clock", { advanceMs: -5 })).status).toBe(400);
  });
});
