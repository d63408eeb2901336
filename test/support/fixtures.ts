/**
 * The recorded requests and responses in `test/fixtures` (copied byte for byte from the recorder's
 * output, subfolders included: data, never edited by hand), and the shape
 * comparison the emulator's fixture tests use: the same keys, recursively through nested objects
 * and the first item of arrays.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { z } from "zod";

export const FIXTURES = path.resolve(__dirname, "../fixtures");

export interface Fixture {
  /** The recording it was taken from. */
  source: string;
  method: string;
  path: string;
  status: number;
  request: any;
  response: any;
}

/** One fixture by file name (`vpc.create.json`, `unrecorded/ipv6_pool.list.json`). */
export const load = (name: string): Fixture => JSON.parse(fs.readFileSync(path.join(FIXTURES, name), "utf8"));

/** Every fixture's name, subfolders included (`unrecorded/ipv6_pool.list.json`), sorted. */
export function fixtureNames(dir = FIXTURES, prefix = ""): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      if (entry.isDirectory()) return fixtureNames(path.join(dir, entry.name), `${prefix}${entry.name}/`);
      return entry.name.endsWith(".json") ? [`${prefix}${entry.name}`] : [];
    })
    .sort();
}

/** Where two JSON values' shapes differ: missing/extra keys, recursively; null vs object counts as nullable, not a difference. */
export function shapeDifferences(actual: unknown, recorded: unknown, at = "$"): string[] {
  if (Array.isArray(recorded) || Array.isArray(actual)) {
    if (!Array.isArray(recorded) || !Array.isArray(actual)) return [`${at}: array on one side only`];
    if (recorded.length === 0 || actual.length === 0)
      return recorded.length === actual.length ? [] : [`${at}: one side is empty; seed more to compare items`];
    return shapeDifferences(actual[0], recorded[0], `${at}[0]`);
  }
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
  if (!isObject(recorded) || !isObject(actual)) return [];
  const diffs: string[] = [];
  const actualKeys = Object.keys(actual);
  const recordedKeys = Object.keys(recorded);
  for (const k of recordedKeys) if (!actualKeys.includes(k)) diffs.push(`${at}.${k}: missing`);
  for (const k of actualKeys) if (!recordedKeys.includes(k)) diffs.push(`${at}.${k}: not in the recording`);
  for (const k of recordedKeys) if (k in actual) diffs.push(...shapeDifferences(actual[k], recorded[k], `${at}.${k}`));
  return diffs;
}

/** What a recorded exchange's method and path must parse with: the sdk's response and request schemas. */
export interface SchemaRoute {
  method: string;
  /** Matched against the fixture's path without its query. */
  pattern: RegExp;
  response: z.ZodType;
  request?: z.ZodType;
}

/** The route a recorded exchange belongs to, or undefined. */
export function routeFor(routes: readonly SchemaRoute[], method: string, fixturePath: string): SchemaRoute | undefined {
  const bare = fixturePath.split("?")[0]!;
  return routes.find((r) => r.method === method && r.pattern.test(bare));
}

/** Fails with every zod issue listed, so a fixture that does not parse says where. */
export function expectParses(schema: z.ZodType, value: unknown, what: string): void {
  const result = schema.safeParse(value);
  if (!result.success) throw new Error(`${what}: ${JSON.stringify(result.error.issues, null, 2)}`);
}

/**
 * The emulator's answer to a replayed exchange matches the recording: the same status; for an
 * error, exactly the recorded body; otherwise the same keys, apart from `documented` differences
 * (each one explained where it is listed).
 */
export function expectMatchesRecording(response: { status: number; body: unknown }, fixture: Fixture, documented: string[] = []): void {
  expect(response.status).toBe(fixture.status);
  if (fixture.status >= 400) {
    expect(response.body).toEqual(fixture.response);
    return;
  }
  expect(shapeDifferences(response.body, fixture.response)).toEqual(documented);
}
