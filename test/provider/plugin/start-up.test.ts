/**
 * The engine starts the plugin on every operation, so what it loads before its first answer is
 * paid on every `preview`, `up`, `refresh` and `destroy`. Pulumi's SDK (with its Automation API,
 * about a third of the plugin's start-up) is loaded only when a data function answers.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { REPO_ROOT } from "../../support/engine";

/** The modules of `@pulumi/pulumi` a fresh process has loaded after `script`. */
function pulumiModulesAfter(script: string): string[] {
  const out = execFileSync(
    process.execPath,
    [
      "-e",
      `${script}; console.log(JSON.stringify(Object.keys(require.cache).filter((f) => f.includes("/@pulumi/pulumi/") && !f.includes("/proto/"))))`,
    ],
    { cwd: REPO_ROOT, encoding: "utf8" },
  );
  return (JSON.parse(out) as string[]).map((f) => f.slice(f.indexOf("@pulumi/pulumi/")));
}

const SERVER = JSON.stringify(path.join(REPO_ROOT, "dist/provider/plugin/server.js"));

test("the plugin's server loads Pulumi's protocol, not its SDK or Automation API", () => {
  const loaded = pulumiModulesAfter(`require(${SERVER})`);
  expect(loaded.filter((f) => /^@pulumi\/pulumi\/(index|automation\/|runtime\/index)\.js$/.test(f) || f.includes("/automation/"))).toEqual(
    [],
  );
});

test("a data function's answer loads the SDK when it needs it", () => {
  const loaded = pulumiModulesAfter(
    `const f = require(${JSON.stringify(path.join(REPO_ROOT, "dist/provider/plugin/functions.js"))}); f.dataFunctions()`,
  );
  expect(loaded).toContain("@pulumi/pulumi/index.js");
});
