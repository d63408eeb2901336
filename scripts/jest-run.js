// Runs jest and ends with one plain summary line (`tests: N passed, N failed, N skipped`),
// which CI reads; jest's own summary stays above it. The exit code is jest's.
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "jest-")), "report.json");
const result = spawnSync(
  process.execPath,
  [path.join(root, "node_modules/jest/bin/jest.js"), "--json", `--outputFile=${report}`, ...process.argv.slice(2)],
  { cwd: root, stdio: "inherit" },
);
let code = result.status ?? 1;
try {
  const r = JSON.parse(fs.readFileSync(report, "utf8"));
  const skipped = r.numPendingTests + r.numTodoTests;
  console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
  if (r.numTotalTests === 0) {
    console.error("no test ran");
    code = 1;
  }
} catch {
  console.error("jest wrote no report");
  code = code || 1;
}
process.exit(code);
