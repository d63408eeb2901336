/**
 * Setup never writes beside a `pulumi` of the user's own, and cleans up what earlier setups wrote
 * there (issue 39): `remove_old_launcher` of scripts/toolchain.sh removes a
 * `pulumi-resource-pulumi-nodejs` only when it is byte-identical to the launcher this project
 * shipped (kept in `fixtures/` as it was), and says so; Pulumi's own launcher and any other file
 * stay.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../support/engine";
import { runProcess } from "../support/process";

const OLD = fs.readFileSync(path.join(__dirname, "fixtures/pulumi-resource-pulumi-nodejs.2026-11-26"));
const STOCK = fs.readFileSync(path.join(REPO_ROOT, "node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"));

let base: string;
beforeAll(() => (base = fs.mkdtempSync(path.join(os.tmpdir(), "pc-old-launcher-"))));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

/** A user's `pulumi` folder holding `launcher` (if any) beside `pulumi`; what remove_old_launcher said, and what is left. */
async function cleanUp(name: string, launcher?: Buffer): Promise<{ said: string; left: string[] }> {
  const bin = path.join(base, name);
  fs.mkdirSync(bin);
  fs.writeFileSync(path.join(bin, "pulumi"), "#!/bin/sh\n", { mode: 0o755 });
  if (launcher) fs.writeFileSync(path.join(bin, "pulumi-resource-pulumi-nodejs"), launcher, { mode: 0o755 });
  const script = `ROOT=${JSON.stringify(REPO_ROOT)}; source "$ROOT/scripts/toolchain.sh"; remove_old_launcher "$1"`;
  const result = await runProcess("bash", ["-c", script, "bash", bin]);
  expect(result.code).toBe(0);
  return { said: result.out, left: fs.readdirSync(bin).sort() };
}

test("the launcher this project shipped is named in toolchain.sh by its SHA-256", () => {
  const sum = createHash("sha256").update(OLD).digest("hex");
  expect(fs.readFileSync(path.join(REPO_ROOT, "scripts/toolchain.sh"), "utf8")).toMatch(new RegExp(`OLD_LAUNCHERS="[^"]*${sum}`));
});

test("a copy of that launcher beside the user's pulumi is removed, saying so", async () => {
  const { said, left } = await cleanUp("old", OLD);
  expect(left).toEqual(["pulumi"]);
  expect(said).toContain("pulumi-resource-pulumi-nodejs: an earlier pulumi-compute setup copied it beside your pulumi");
});

test("Pulumi's own launcher, a launcher changed by hand, and a folder without one are left as they are, silently", async () => {
  for (const [name, launcher] of [
    ["stock", STOCK],
    ["edited", Buffer.concat([OLD, Buffer.from("# mine\n")])],
    ["none", undefined],
  ] as const) {
    const { said, left } = await cleanUp(name, launcher);
    expect({ name, said, left }).toEqual({ name, said: "", left: launcher ? ["pulumi", "pulumi-resource-pulumi-nodejs"] : ["pulumi"] });
  }
});
