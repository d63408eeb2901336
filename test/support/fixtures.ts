/**
 * The recorded requests and responses in `shared/fixtures` (beside the repository), and the shape
 * comparison the emulator's fixture tests use: the same keys, recursively through nested objects
 * and the first item of arrays.
 */
import * as fs from "node:fs";
import * as path from "node:path";

export const FIXTURES = path.resolve(__dirname, "../../../shared/fixtures");

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

/** Where two JSON values' shapes differ: missing/extra keys, recursively; null vs object counts as nullable, not a difference. */
export function shapeDifferences(actual: unknown, recorded: unknown, at = "$"): string[] {
  if (Array.isArray(recorded) || Array.isArray(actual)) {
    if (!Array.isArray(recorded) || !Array.isArray(actual)) return [`${at}: array on one side only`];
    if (recorded.length === 0 || actual.length === 0) return recorded.length === actual.length ? [] : [`${at}: one side is empty; seed more to compare items`];
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
