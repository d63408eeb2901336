// The order jest starts test files in. Jest runs three files at once and gives the next file to
// whichever worker is free first, so the run ends with the files started last: the longest must
// start first, or one runs on alone while the other cores wait.
//
// Jest's own order is failed first, then the longest by the timings of earlier runs on this
// machine, and by file size where there are none. A clean clone (CI) has none, and file size says
// little of an engine test: `examples-cli` (1.6 kB, 138 s) started after every other file that
// drives the engine, and `reference-examples` (5 kB, 252 s) after twenty of them.
//
// So the files that drive the engine (test/e2e, test/sdks) start before the rest; among them,
// failed first, then those whose time is known, longest first (this machine's last run of the file,
// else its time on CI in `jest-ci-seconds.json`), then the others by size. `scripts/jest-run.js`
// names a file of more than LONG_SECONDS that the table lacks, to be added.
const Sequencer = require("@jest/test-sequencer").default;
const path = require("node:path");
const CI_SECONDS = require("./jest-ci-seconds.json");

const ROOT = path.resolve(__dirname, "..");
const DRIVES_THE_ENGINE = /[\\/]test[\\/](e2e|sdks)[\\/]/;
/** A file that takes longer than this on CI belongs in `jest-ci-seconds.json`. */
const LONG_SECONDS = 100;

/** A test file's time on CI (ms) by the table, by its path from the repository's root. */
function ciMs(file) {
  const seconds = CI_SECONDS.seconds[path.relative(ROOT, file).split(path.sep).join("/")];
  return seconds === undefined ? undefined : seconds * 1000;
}

class EngineTestsFirst extends Sequencer {
  sort(tests) {
    const ordered = super.sort(tests);
    const first = ordered.filter((test) => DRIVES_THE_ENGINE.test(test.path));
    const rest = ordered.filter((test) => !DRIVES_THE_ENGINE.test(test.path));
    // `super.sort` set each test's `duration` from this machine's timings, where it has them.
    const known = (test) => test.duration ?? ciMs(test.path);
    const failed = first.filter((test) => this.hasFailed(test));
    const timed = first.filter((test) => !this.hasFailed(test) && known(test) !== undefined).sort((a, b) => known(b) - known(a));
    const untimed = first.filter((test) => !this.hasFailed(test) && known(test) === undefined);
    return [...failed, ...timed, ...untimed, ...rest];
  }
}

module.exports = EngineTestsFirst;
module.exports.ciMs = ciMs;
module.exports.LONG_SECONDS = LONG_SECONDS;
