// This process's CPU time from /proc/self/stat, for the suite's CPU report (scripts/jest-run.js
// and the test environment, scripts/jest-cpu-environment.js). Linux counts it in USER_HZ, 100 a
// second; a child's time is counted once the child has been waited for.
const fs = require("node:fs");

/**
 * CPU ms: this process's own (`self`: utime, stime) and its waited-for children's (`children`:
 * cutime, cstime); undefined where there is no /proc.
 */
function procCpuMs({ self, children }) {
  try {
    // After the command's name: fields 14 to 17 of stat are 12 to 15 here (from 0).
    const fields = fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    const ticks = (self ? Number(fields[11]) + Number(fields[12]) : 0) + (children ? Number(fields[13]) + Number(fields[14]) : 0);
    return ticks * 10;
  } catch {
    return undefined;
  }
}

module.exports = { procCpuMs };
