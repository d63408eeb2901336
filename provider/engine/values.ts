/** Value helpers for the engine: unknowns, names, canonical comparison, durations. */

/** What an unknown input looks like during preview (`pulumi.runtime.unknownValue`). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function isUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(isUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(isUnknown);
  return false;
}

/** `ttlSec` → `ttl_sec`. */
export function toSnake(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** `ttl_sec` → `ttlSec`. */
export function toCamel(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** Renames every object key to camelCase, recursively (API records → outputs). */
export function camelizeDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelizeDeep);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [toCamel(k), camelizeDeep(v)]));
  }
  return value;
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
  const parts = [[Math.floor(s / 3600), "h"], [Math.floor((s % 3600) / 60), "m"], [s % 60, "s"]] as const;
  return parts.filter(([n]) => n > 0).map(([n, u]) => `${n}${u}`).join("") || "0s";
}
