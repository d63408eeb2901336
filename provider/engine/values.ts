/** Value helpers for the engine: unknowns, names, canonical comparison, durations. */

/** What an unknown input looks like during preview (`pulumi.runtime.unknownValue`). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function isUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(isUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(isUnknown);
  return false;
}

type CamelKey<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<CamelKey<T>>}` : S;

/** An API type with camelCase keys, as inputs and outputs spell it (index signatures dropped). */
export type Camelized<T> = T extends readonly (infer U)[]
  ? Camelized<U>[]
  : T extends object
    ? { [K in keyof T as K extends string ? (string extends K ? never : CamelKey<K>) : never]: Camelized<T[K]> }
    : T;

/** `ttlSec` → `ttl_sec`. */
export function toSnake(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** `ttl_sec` → `ttlSec`. */
export function toCamel(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** Renames every object key to camelCase, recursively (API records → outputs). */
export const camelizeDeep = (value: unknown): unknown => renameDeep(value, toCamel);

/** Renames every object key to snake_case, recursively (inputs → request bodies). */
export const snakeDeep = (value: unknown): unknown => renameDeep(value, toSnake);

function renameDeep(value: unknown, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => renameDeep(v, rename));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [rename(k), renameDeep(v, rename)]));
  return value;
}

/** `hour_of_day must be …` → `hourOfDay must be …`: a message about wire fields, naming the program's. */
export const camelText = (text: string): string => text.replace(/\b[a-z]+(?:_[a-z0-9]+)+\b/g, toCamel);

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The value at a dotted path (`rules.inbound`); `undefined` when any step is missing. */
export function valueAt(object: unknown, path: string): unknown {
  let value = object;
  for (const step of path.split(".")) value = isRecord(value) ? value[step] : undefined;
  return value;
}

/** Sets the value at a dotted path, creating the objects on the way. */
export function setAt(object: Record<string, unknown>, path: string, value: unknown): void {
  const steps = path.split(".");
  const last = steps.pop()!;
  let target = object;
  for (const step of steps) {
    const next = target[step];
    target = isRecord(next) ? next : (target[step] = {});
  }
  target[last] = value;
}

/** JSON with sorted keys, so equal values give equal text whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** `"90s"`, `"10m"`, `"1h30m"` or a number of seconds → milliseconds. */
export function parseDuration(value: string | number): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) && value > 0 ? value * 1000 : undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const match = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text);
  if (!match || text === "") return undefined;
  const [, h = "0", m = "0", s = "0"] = match;
  const ms = ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000;
  return ms > 0 ? ms : undefined;
}

/** 600000 → `10m`. */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  const parts = [
    [Math.floor(s / 3600), "h"],
    [Math.floor((s % 3600) / 60), "m"],
    [s % 60, "s"],
  ] as const;
  return (
    parts
      .filter(([n]) => n > 0)
      .map(([n, u]) => `${n}${u}`)
      .join("") || "0s"
  );
}
