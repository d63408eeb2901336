/**
 * The spec's renaming, undone at the wire for the original API's TypeScript client.
 *
 * Why a shim at all: `@linode/api-v4` speaks the original API, in which instances are `linode`s.
 * This project's API is the same API renamed (emulator README, "Known differences"): paths
 * `/linode/instances` → `/compute/instances` (and `/linode/types` → `/compute/types`), fields `linode_id` → `compute_id`, lists `linodes` →
 * `computes` (a reply's `from_linode` → `from_compute`), entity, device and grant type `linode` → `compute`, public images `linode/…` →
 * `public/…`, and, following the same rule, region capabilities `Linodes` → `Computes` and event
 * actions `linode_*` → `compute_*`. Requests are renamed on the way out and answers back on the way
 * in, so the client sees the API it was written for and nothing else about the wire changes.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const REQUEST_KEYS: Record<string, string> = { linode_id: "compute_id", linodes: "computes" };
const ANSWER_KEYS: Record<string, string> = { compute_id: "linode_id", computes: "linodes", from_compute: "from_linode" };

/** `https://…/v4/linode/instances/1` → `…/v4/compute/instances/1`; `images/linode%2Fdebian12` → `images/public%2Fdebian12`. */
export function renameRequestUrl(url: string): string {
  return url.replace(/\/linode\/(instances|types)(?=\/|\?|$)/, "/compute/$1").replace(/\/images\/linode(\/|%2F)/i, "/images/public$1");
}

/** A request body in the original API's names → the spec's. */
export function renameRequestBody(body: unknown): unknown {
  return walk(body as Json, REQUEST_KEYS, (key, value) => {
    if (key === "type" && value === "linode") return "compute";
    if (/^linode\/[\w.-]+$/.test(value)) return `public/${value.slice("linode/".length)}`;
    return value;
  });
}

/** An answer in the spec's names → the original API's, which the client's types declare. */
export function renameAnswer(body: unknown): unknown {
  return walk(body as Json, ANSWER_KEYS, (key, value) => {
    if (key === "type" && value === "compute") return "linode";
    if (key === "action" && value.startsWith("compute_")) return `linode_${value.slice("compute_".length)}`;
    if (key === "capabilities") return value.replace(/\bComputes\b/, "Linodes");
    if (key === "url") return value.replace(/\/compute\/instances(?=\/|$)/, "/linode/instances");
    if (/^public\/[\w.-]+$/.test(value)) return `linode/${value.slice("public/".length)}`;
    return value;
  });
}

/** Renames keys by `keys` and string values by `value(key, text)`; an array's items take the array's key. */
function walk(node: Json, keys: Record<string, string>, value: (key: string, text: string) => string, key = ""): Json {
  if (typeof node === "string") return value(key, node);
  if (Array.isArray(node)) return node.map((item) => walk(item, keys, value, key));
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [keys[k] ?? k, walk(v, keys, value, k)]));
}
