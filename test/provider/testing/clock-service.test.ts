/**
 * An emulated stack's clock across processes: the provider process's time (`jumpingTime`) waits
 * through the clock service, which moves the emulator's clock by what is waited instead of
 * sleeping; overlapping waits move it once; a deadline passes when the waits reach it; a wait given
 * up ends at once; a clock that is gone fails the wait with what to check.
 */
import { Clock } from "../../../emulator/core/clock";
import { jumpingTime, processTime, REAL_TIME, EMULATED_CLOCK_ENV } from "../../../provider/engine/time";
import { startClockService, type ClockService } from "../../../provider/testing/clock-service";

const START = Date.UTC(2026, 0, 1);
let clock: Clock;
let service: ClockService;

beforeEach(async () => {
  clock = new Clock({ scale: 0, startMs: START, tickMs: 0 });
  service = await startClockService(clock);
});
afterEach(() => service.close());

test("a wait of the provider's moves the emulator's clock by what it waits, without waiting", async () => {
  const time = jumpingTime(service.url);
  const before = time.now();
  const timers = jest.spyOn(globalThis, "setTimeout");
  try {
    await time.sleep(20 * 60_000);
    // No real timer as long as the wait (the HTTP client's own short timers aside): the emulator's clock moved instead.
    expect(timers.mock.calls.filter(([, ms]) => (ms ?? 0) >= 60_000)).toEqual([]);
  } finally {
    timers.mockRestore();
  }
  expect(clock.nowMs()).toBe(START + 20 * 60_000);
  expect(time.now() - before).toBeGreaterThanOrEqual(20 * 60_000);
});

test("waits that overlap move the provider's time to the latest end, not the sum", async () => {
  const time = jumpingTime(service.url);
  const before = time.now();
  await Promise.all([time.sleep(5_000), time.sleep(15_000), time.sleep(1_000)]);
  // Each is the emulator's wait from when it arrives: the clock moves at least by the longest.
  expect(clock.nowMs()).toBeGreaterThanOrEqual(START + 15_000);
  expect(clock.nowMs()).toBeLessThanOrEqual(START + 21_000);
  const moved = time.now() - before;
  expect(moved).toBeGreaterThanOrEqual(15_000);
  expect(moved).toBeLessThan(21_000);
});

test("a deadline passes once the waits reach it, and a wait on its signal then fails", async () => {
  const time = jumpingTime(service.url);
  const deadline = time.deadline(30_000);
  await time.sleep(20_000, deadline);
  expect(deadline.aborted).toBe(false);
  await expect(time.sleep(20_000, deadline)).rejects.toThrow(/deadline passed/);
  expect((deadline.reason as Error).name).toBe("TimeoutError");
});

test("a wait given up ends at once with the reason, and the next wait still moves the clock", async () => {
  const time = jumpingTime(service.url);
  const stop = new AbortController();
  stop.abort(new Error("given up"));
  await expect(time.sleep(60_000, stop.signal)).rejects.toThrow("given up");
  const running = new AbortController();
  const given = time.sleep(60 * 60_000, running.signal);
  running.abort(new Error("stopped"));
  await expect(given).rejects.toThrow("stopped");
  await time.sleep(1_000);
  expect(clock.nowMs()).toBeGreaterThanOrEqual(START + 1_000);
});

test("a clock that is gone fails the wait, saying so; without the variable the process's time is real", async () => {
  const { url } = service;
  await service.close();
  await expect(jumpingTime(url).sleep(1_000)).rejects.toThrow(/emulated stack's clock .* does not answer/);
  service = await startClockService(clock);
  expect(processTime({})).toBe(REAL_TIME);
  expect(processTime({ [EMULATED_CLOCK_ENV]: service.url })).not.toBe(REAL_TIME);
});

test("a wait asks the clock for exactly what it waits, however much real time passes while it asks", async () => {
  // Each reading of real time a millisecond later, as on a busy machine.
  const realNow = Date.now.bind(Date);
  let readings = 0;
  const spy = jest.spyOn(Date, "now").mockImplementation(() => realNow() + readings++);
  try {
    await jumpingTime(service.url).sleep(20 * 60_000);
  } finally {
    spy.mockRestore();
  }
  expect(clock.nowMs()).toBe(START + 20 * 60_000);
});
