// Jest's test environment: Node's own, which also writes down the CPU each test file cost, for
// scripts/jest-run.js to name the costliest files. With several files sharing the cores, a
// file's wall time moves with whatever runs beside it; its CPU does not, and the suite's time is
// its CPU over the cores (it keeps them busy). The CPU counted is this worker's and its waited-for
// children's (the engine, its language hosts and plugins, programs, npm), from the start of the
// file's environment to its teardown, after the file's last hook.
const fs = require("node:fs");
const path = require("node:path");
const NodeEnvironment = require("jest-environment-node").TestEnvironment;
const { procCpuMs } = require("./proc-cpu");

/** The folder jest-run.js reads, one line per test file; none when jest runs without it. */
const CPU_DIR = process.env.PULUMI_COMPUTE_JEST_CPU_DIR;

/** CPU ms of this process and its waited-for children. */
const cpuMs = () => procCpuMs({ self: true, children: true });

class CpuCountingEnvironment extends NodeEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
    this.startedMs = cpuMs();
  }

  async teardown() {
    await super.teardown();
    const ended = cpuMs();
    if (!CPU_DIR || this.startedMs === undefined || ended === undefined) return;
    const line = JSON.stringify({ file: this.testPath, cpuMs: ended - this.startedMs });
    fs.appendFileSync(path.join(CPU_DIR, `${process.pid}.jsonl`), `${line}\n`);
  }
}

module.exports = CpuCountingEnvironment;
