/**
 * `scale --profile` profiles a provider process through `NODE_OPTIONS`, which the engine hands to
 * the plugins it starts. The variants' folders have spaces ("DomainRecord (plugin)"): unquoted, Node
 * split the options there, and the plugin's profile was never written.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { nodeOptionQuoted } from "../../bench/profile";

describe("nodeOptionQuoted", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "node-options-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("passes a folder with spaces and quotes whole to --cpu-prof-dir and --require", () => {
    const folder = path.join(dir, 'DomainRecord (plugin) "x"', "host");
    const preload = path.join(dir, "pre load.js");
    writeFileSync(preload, 'process.stdout.write("preloaded ");\n');
    const out = execFileSync(process.execPath, ["-e", 'process.stdout.write("ran")'], {
      env: { ...process.env, NODE_OPTIONS: `--cpu-prof --cpu-prof-dir ${nodeOptionQuoted(folder)} --require ${nodeOptionQuoted(preload)}` },
      encoding: "utf8",
    });
    expect(out).toBe("preloaded ran");
    expect(readdirSync(folder).filter((f) => f.endsWith(".cpuprofile"))).toHaveLength(1);
  });
});
