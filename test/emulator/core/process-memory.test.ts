/** The standalone emulator's V8 settings, applied at run time as `compute-emulator` applies them. */
import { execFileSync } from "node:child_process";
import { STANDALONE_V8_FLAGS, processMemory } from "../../../emulator/core/process-memory";

/**
 * A fresh Node process that applies `flags` with `v8.setFlagsFromString` once running (as the
 * CLI does), then allocates like a busy server: many short-lived objects. Answers the young
 * generation's size afterwards, in MB.
 */
function youngGenerationAfterChurn(flags: readonly string[]): number {
  const program = `
    const v8 = require("node:v8");
    for (const flag of ${JSON.stringify(flags)}) v8.setFlagsFromString(flag);
    let batch = [];
    for (let i = 0; i < 3e6; i++) { batch.push({ i, text: "request " + i, list: [i, i] }); if (batch.length > 2000) batch = []; }
    const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
    process.stdout.write(String(young.space_size / 1024 / 1024));`;
  return Number(execFileSync(process.execPath, ["-e", program], { encoding: "utf8" }));
}

test("set at run time, the settings keep the young generation at its initial size under churn", () => {
  const withDefaults = youngGenerationAfterChurn([]);
  const withSettings = youngGenerationAfterChurn(STANDALONE_V8_FLAGS);
  // V8's defaults grow it (to 64 MB on Node 24); the settings hold it at two 1 MB semi-spaces.
  expect(withDefaults).toBeGreaterThan(8);
  expect(withSettings).toBeLessThanOrEqual(4);
});

test("processMemory reports the generations inside the heap", () => {
  const m = processMemory();
  expect(m.newSpace).toBeGreaterThan(0);
  expect(m.oldSpace).toBeGreaterThan(0);
  expect(m.newSpace + m.oldSpace).toBeLessThanOrEqual(m.heapTotal);
  expect(m.heapUsed).toBeLessThanOrEqual(m.heapTotal);
});
