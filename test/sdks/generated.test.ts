/**
 * The SDKs of sdks/ are generated from the provider plugin's schema (tools/sdkgen, Pulumi's own
 * Python and Go code generators) and must be current: `npm run generate` rewrites them. The
 * generator's --check compares every file it would write, and names any the folders hold beyond
 * them and the files written by hand.
 */
import * as path from "node:path";
import { REPO_ROOT } from "../support/engine";
import { runProcess } from "../support/process";

// The first run builds the generator into the project's cache: about 6 minutes measured cold on two
// shared cores (2.5 minutes of CPU); then the check takes a second.
jest.setTimeout(20 * 60_000);

test("sdks/python and sdks/go are what Pulumi's generators make of the schema (run `npm run generate`)", async () => {
  const result = await runProcess(
    "bash",
    [path.join(REPO_ROOT, "scripts", "run.sh"), "sdkgen", "--check", "provider/plugin/schema.json", "sdks/python", "sdks/go"],
    { cwd: REPO_ROOT, timeoutMs: 20 * 60_000 },
  );
  expect({ code: result.code, out: result.out.replace(/^.*\[setup\].*\n/gm, "") }).toEqual({ code: 0, out: "" });
});
