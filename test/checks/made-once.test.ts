/**
 * What the test files of a run make once and share (test/support/installed-project.ts): made by
 * the first that asks, whole before anyone reads it, and never stuck behind a lock whose maker died.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { madeOnce } from "../support/installed-project";

let base: string;
beforeEach(() => (base = fs.mkdtempSync(path.join(os.tmpdir(), "pc-made-once-"))));
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

test("callers at once: one makes it, every caller gets it whole, and no lock or half-made folder is left", async () => {
  const dir = path.join(base, "thing");
  let makes = 0;
  const make = async (into: string) => {
    makes++;
    fs.writeFileSync(path.join(into, "first"), "1");
    await new Promise((resolve) => setTimeout(resolve, 300));
    fs.writeFileSync(path.join(into, "second"), "2");
  };
  const got = await Promise.all([madeOnce(dir, make), madeOnce(dir, make), madeOnce(dir, make)]);
  expect(got).toEqual([dir, dir, dir]);
  expect(makes).toBe(1);
  expect(fs.readdirSync(dir).sort()).toEqual(["first", "second"]);
  expect(fs.readdirSync(base)).toEqual(["thing"]);
});

test("a lock whose maker is gone is taken over", async () => {
  const dir = path.join(base, "thing");
  fs.mkdirSync(`${dir}.lock`);
  // A process id no process has: the largest Linux hands out is below 2^22.
  fs.writeFileSync(path.join(`${dir}.lock`, "pid"), String(2 ** 22 + 1));
  await madeOnce(dir, async (into) => fs.writeFileSync(path.join(into, "made"), "yes"));
  expect(fs.readFileSync(path.join(dir, "made"), "utf8")).toBe("yes");
});

test("a maker that fails leaves no lock, and the next caller makes it", async () => {
  const dir = path.join(base, "thing");
  await expect(madeOnce(dir, () => Promise.reject(new Error("npm failed")))).rejects.toThrow("npm failed");
  expect(fs.existsSync(`${dir}.lock`)).toBe(false);
  await madeOnce(dir, async (into) => fs.writeFileSync(path.join(into, "made"), "yes"));
  expect(fs.readdirSync(dir)).toEqual(["made"]);
});
