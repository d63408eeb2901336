// Tests run from the TypeScript sources through ts-jest, which transpiles file by file
// (tsconfig sets isolatedModules):
// `tsc` type-checks the whole tree before jest starts (see scripts/run.sh), and the
// Pulumi engine's provider process loads the compiled `dist/` tree.
/** @type {import('jest').Config} */
module.exports = {
  // Node's environment, which also writes down each file's CPU for scripts/jest-run.js.
  testEnvironment: "<rootDir>/scripts/jest-cpu-environment.js",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // The emulator runs strict in every test (test/support/strict-emulator.ts).
  setupFiles: ["<rootDir>/test/support/strict-emulator.ts"],
  transform: {
    "^.+\\.ts$": ["ts-jest", { tsconfig: "<rootDir>/tsconfig.json" }],
  },
  moduleFileExtensions: ["ts", "js", "json"],
  testTimeout: 30000,
  // Files that drive the engine start first (scripts/jest-sequencer.js).
  testSequencer: "<rootDir>/scripts/jest-sequencer.js",
  // Three files at once on two cores: the engine's files wait now and then (a process starting, a
  // clock's jump, a shell's prompt), and with two the cores stood idle for 14% of the run.
  maxWorkers: 3,
};
