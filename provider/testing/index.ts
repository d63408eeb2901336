/**
 * `pulumi-compute/testing`: what a project's own tests use (jest, or any runner).
 *
 * - `computeMocks()` — Pulumi mocks that answer as an `up` against the API would, from the same
 *   specs and emulator code that serve the real thing: for unit tests of a program's plan.
 * - `emulatedStack()` — the program through the real Pulumi engine against an emulated account:
 *   for the cloud after `up`, drift, failures.
 *
 * ```ts
 * import { computeMocks, emulatedStack } from "pulumi-compute/testing";
 * ```
 */
export { computeMocks, CheckFailedError, type ComputeMocks, type ComputeMocksOptions } from "./mocks";
export { emulatedStack, type DriftFound, type EmulatedStack, type EmulatedStackOptions } from "./stack";
export { demoEnvironment, LocalApi, type LocalApiOptions, type Seed, type SeedContext } from "./local-api";
export { outputValue, refusalOf } from "./outputs";
export type { ResourceDrift } from "../stack/refresh-drift";
