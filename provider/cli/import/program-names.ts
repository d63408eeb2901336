/**
 * Names of the generated program: Pulumi resource names (a slug of the object's label, unique per
 * resource type, since Pulumi keys state by type and name) and TypeScript identifiers (the camelCase
 * of that name, unique in the whole program, never a reserved word). Labels are the API's, so any
 * text may arrive: names stay readable where the label allows and valid where it does not.
 */

/** Words a `const` may not be called (ES reserved words, strict-mode ones, and names the program itself uses). */
const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if " +
    "import in instanceof new null return super switch this throw true try typeof var void while with yield let static " +
    "implements interface package private protected public await arguments eval undefined NaN Infinity compute pulumi"
  ).split(" "),
);

/** `Web Net_01.` → `web-net-01`: lowercase ASCII letters, digits and single dashes; `fallback` when nothing is left. */
export function slug(text: string, fallback: string): string {
  const s = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return s === "" ? fallback : s;
}

/** `web-net-01` → `webNet01`; a leading digit gets the prefix (`10-0-0-0` → `range10000`). */
export function identifier(name: string, prefix: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  let id = words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0]!.toUpperCase() + w.slice(1).toLowerCase())).join("");
  if (id === "" || /^[0-9]/.test(id)) id = prefix + id.charAt(0).toUpperCase() + id.slice(1);
  return RESERVED.has(id) ? `${id}_` : id;
}

/** Hands out names that were not handed out before in the same scope: `web`, `web-2`, `web-3`. */
export class UniqueNames {
  private readonly taken = new Set<string>();

  constructor(private readonly join: (base: string, n: number) => string) {}

  take(base: string): string {
    let name = base;
    for (let n = 2; this.taken.has(name); n++) name = this.join(base, n);
    this.taken.add(name);
    return name;
  }
}

/** Unique Pulumi names (per resource type: the caller keeps one per type) and program-wide identifiers. */
export const resourceNames = () => new UniqueNames((base, n) => `${base}-${n}`);
export const identifiers = () => new UniqueNames((base, n) => `${base}${n}`);
