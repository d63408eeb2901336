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

test("the plugin's start loads nothing that only GetSchema, Invoke, an init error or a taken name needs", () => {
  // The package's schema (GetSchema), the data functions (Invoke), the status messages (a create's
  // init error) and the backend's checkpoints (who holds a taken name) load when first asked for:
  // a run of DomainRecords never asks for them (bench/README.md, issue 61, item 3).
  const main = JSON.stringify(path.join(REPO_ROOT, "dist/provider/plugin/main.js"));
  const out = execFileSync(
    process.execPath,
    [
      "-e",
      `require(${main}).serve([]).then(({ server }) => {
  console.log(JSON.stringify(Object.keys(require.cache)));
  server.forceShutdown();
});`,
    ],
    { cwd: REPO_ROOT, encoding: "utf8" },
  );
  const loaded = (JSON.parse(out) as string[]).map((f) => path.relative(REPO_ROOT, f));
  expect(loaded).toContain("dist/provider/plugin/server.js");
  const unneeded = [
    "dist/provider/plugin/schema.json",
    "dist/provider/plugin/functions.js",
    "dist/provider/stores/backend-store.js",
    "node_modules/@pulumi/pulumi/proto/status_pb.js",
    "node_modules/google-protobuf/google/protobuf/any_pb.js",
  ];
  expect(loaded.filter((f) => unneeded.includes(f))).toEqual([]);
});
