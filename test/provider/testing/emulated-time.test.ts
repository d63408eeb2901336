/**
 * The mocks' time: the emulator's clock stands still, and the provider's waits move it by what
 * they wait, at once; overlapping waits end together; a deadline passes when the waits reach it.
 */
import { Clock } from "../../../emulator/core/clock";
import { emulatedTime } from "../../../provider/testing/emulated-time";

const START = Date.UTC(2026, 0, 1);
const stoppedClock = () => new Clock({ scale: 0, startMs: START, tickMs: 0 });

test("a wait moves the clock by what it waits, without waiting", async () => {
  const clock = stoppedClock();
  const time = emulatedTime(clock);
  const timers = jest.spyOn(globalThis, "setTimeout");
  try {
    await time.sleep(20 * 60_000);
    // Waited on the emulated clock alone: no real timer was set for it.
    expect(timers).not.toHaveBeenCalled();
  } finally {
    timers.mockRestore();
  }
  expect(time.now()).toBe(START + 20 * 60_000);
  expect(clock.nowMs()).toBe(START + 20 * 60_000);
});

test("work the clock holds runs when a wait reaches it, as it would at real speed", async () => {
  const clock = stoppedClock();
  const time = emulatedTime(clock);
  const ran: number[] = [];
  clock.after(90_000, () => ran.push(clock.nowMs()));
  await time.sleep(60_000);
  expect(ran).toEqual([]);
  await time.sleep(60_000);
  expect(ran).toEqual([START + 90_000]);
});

test("waits that overlap end together: the clock goes to the latest end, not the sum", async () => {
  const time = emulatedTime(stoppedClock());
  await Promise.all([time.sleep(5_000), time.sleep(15_000), time.sleep(1_000)]);
  expect(time.now()).toBe(START + 15_000);
});

test("a deadline passes once the waits reach it, and a wait on its signal then fails", async () => {
  const time = emulatedTime(stoppedClock());
  const deadline = time.deadline(30_000);
  await time.sleep(20_000, deadline);
  expect(deadline.aborted).toBe(false);
  await expect(time.sleep(20_000, deadline)).rejects.toThrow(/deadline passed/);
  expect(deadline.aborted).toBe(true);
  expect((deadline.reason as Error).name).toBe("TimeoutError");
});

test("on a clock that runs (a scaled emulator's), a wait that real time almost reached ends without moving the clock back", async () => {
  // Each reading of the clock is a millisecond later in real time, as on a busy machine: the wait
  // ends half a millisecond after the turn's first reading and before its second.
  let real = 0;
  const clock = new Clock({ scale: 1, startMs: START, tickMs: 0, realNow: () => real++ });
  const time = emulatedTime(clock);
  await time.sleep(1.5);
  expect(time.now()).toBeGreaterThan(START + 1.5);
});
