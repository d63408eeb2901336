// The order jest starts test files in: the files that drive the engine (test/e2e, test/sdks) before
// the rest, each group in jest's own order (failed first, then the longest by the timings of earlier
// runs, and by file size where there are none). A clean clone has no timings, and file size says
// little of an engine test: a short file that runs the demo's CLI took 200 s and started last,
// leaving the cores idle at the end while it ran. Started first, the long files overlap one another
// and the quick unit files fill the end.
const Sequencer = require("@jest/test-sequencer").default;

const DRIVES_THE_ENGINE = /[\\/]test[\\/](e2e|sdks)[\\/]/;

class EngineTestsFirst extends Sequencer {
  sort(tests) {
    const ordered = super.sort(tests);
    const first = ordered.filter((test) => DRIVES_THE_ENGINE.test(test.path));
    return [...first, ...ordered.filter((test) => !DRIVES_THE_ENGINE.test(test.path))];
  }
}

module.exports = EngineTestsFirst;
