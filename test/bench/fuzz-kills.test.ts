/**
 * The fuzzer's kills (`generateSteps` with a kill rate, `npm run bench -- fuzz --kills=RATE`) are
 * drawn from a random stream of their own: without a rate, every seed gives exactly the steps it
 * gave before kills existed, so the fixed seeds of `test/e2e/fuzz.e2e.test.ts`, picked for their
 * coverage and CI time, keep their sequences.
 */
import { createHash } from "node:crypto";
import { generateSteps, type Step } from "../support/fuzz";

/** The CI seeds with their step counts, seeds of the shrunk tests, and three long runs. */
const CASES: Array<[number, number]> = [
  [299, 16],
  [55, 14],
  [195, 12],
  [281, 10],
  [17, 40],
  [105, 30],
  [117, 40],
  [1, 200],
  [2, 200],
  [3, 200],
];

const digest = (lists: Step[][]) => createHash("sha256").update(JSON.stringify(lists)).digest("hex");

test("without a kill rate, every seed gives the steps it gave before kills existed", () => {
  // The digest of these cases' step lists from the generator of main before the `kill` step (95768f8).
  const before = "fbbd43cd8e9354a8c1d5167d81a3958eaa030f21a2ee3b8affaa3b3ec9db8735";
  expect(digest(CASES.map(([seed, count]) => generateSteps(seed, count)))).toBe(before);
  expect(digest(CASES.map(([seed, count]) => generateSteps(seed, count, { kills: 0 })))).toBe(before);
});

test("with a kill rate, kills follow program changes the next up writes, each with its kill point, the same on every call", () => {
  const lists = [1, 2, 3].map((seed) => generateSteps(seed, 200, { kills: 0.1 }));
  expect(lists.map((steps) => steps.length)).toEqual([200, 200, 200]);
  const kills = lists.flat().filter((s): s is Extract<Step, { op: "kill" }> => s.op === "kill");
  expect(kills.length).toBeGreaterThan(10);
  // Kill points (percent of the planned writes) from all over the range.
  expect(kills.every((k) => Number.isInteger(k.at) && k.at >= 0 && k.at < 100)).toBe(true);
  expect(Math.min(...kills.map((k) => k.at))).toBeLessThan(20);
  expect(Math.max(...kills.map((k) => k.at))).toBeGreaterThan(80);
  // Each kill after an add, a remove or a change since the last up (or kill): there is something to write.
  for (const steps of lists) {
    let unsent = false;
    for (const [index, step] of steps.entries()) {
      if (step.op === "kill") expect({ index, unsent }).toEqual({ index, unsent: true });
      if (["add", "remove", "changeInPlace", "changeReplace"].includes(step.op)) unsent = true;
      if (["up", "upRefresh", "kill"].includes(step.op)) unsent = false;
      if (step.op === "destroy") unsent = true;
    }
  }
  expect(lists.every((steps) => steps.slice(0, 3).every((s) => s.op === "add") && steps[steps.length - 1]!.op === "up")).toBe(true);
  expect([1, 2, 3].map((seed) => generateSteps(seed, 200, { kills: 0.1 }))).toEqual(lists);
});
