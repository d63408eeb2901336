/**
 * TypeScript source for input values, laid out the way Prettier lays them out (double quotes
 * unless single ones need fewer escapes, trailing commas, a value on one line when it fits in the
 * width, else one element per line), so a generated program is already formatted: a user who runs
 * Prettier on it sees no change.
 */

/** A reference to another resource of the program: rendered as `<identifier>.id`. */
export class Reference {
  constructor(readonly identifier: string) {}
}

/** The width generated lines stay within (Prettier's `printWidth` for the generated project). */
export const WIDTH = 100;
const INDENT = "  ";

/** A string literal as Prettier prints it. */
export function stringLiteral(text: string): string {
  const doubles = (text.match(/"/g) ?? []).length;
  const singles = (text.match(/'/g) ?? []).length;
  const json = JSON.stringify(text);
  if (doubles <= singles) return json;
  const inner = json.slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'");
  return `'${inner}'`;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Reference);

const propertyKey = (key: string) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : stringLiteral(key));

/** The value on one line. */
export function inline(value: unknown): string {
  if (value instanceof Reference) return `${value.identifier}.id`;
  if (typeof value === "string") return stringLiteral(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[${value.map(inline).join(", ")}]`;
  if (isPlainObject(value)) {
    const entries = Object.entries(value);
    return entries.length === 0 ? "{}" : `{ ${entries.map(([k, v]) => `${propertyKey(k)}: ${inline(v)}`).join(", ")} }`;
  }
  throw new Error(`cannot write ${String(value)} as a literal`);
}

/**
 * Prettier always breaks an array of two or more objects (or arrays) of more than one element
 * each, even when it would fit: a list of records reads better one per line.
 */
function alwaysBreaks(value: unknown[]): boolean {
  if (value.length < 2) return false;
  const size = (v: unknown) => (Array.isArray(v) ? v.length : isPlainObject(v) ? Object.keys(v).length : 0);
  const sameShape = value.every((v) => Array.isArray(v) === Array.isArray(value[0]) && isPlainObject(v) === isPlainObject(value[0]));
  return sameShape && value.every((v) => size(v) > 1);
}

/**
 * The value at `indent` levels, `before` being the text on its line before it and `after` the
 * text after it (`,`, `);`): on that line when it fits and nothing forces a break, else broken.
 */
export function layout(value: unknown, indent: number, before: string, after: string): string {
  const one = inline(value);
  const forced = Array.isArray(value) && alwaysBreaks(value);
  if (!forced && INDENT.repeat(indent).length + before.length + one.length + after.length <= WIDTH) return one;
  const pad = INDENT.repeat(indent + 1);
  if (Array.isArray(value) && value.length > 0) {
    const lines = value.map((v) => `${pad}${layout(v, indent + 1, "", ",")},`);
    return `[\n${lines.join("\n")}\n${INDENT.repeat(indent)}]`;
  }
  if (isPlainObject(value) && Object.keys(value).length > 0) {
    const lines = Object.entries(value).map(([k, v]) => {
      const key = `${propertyKey(k)}: `;
      return `${pad}${key}${layout(v, indent + 1, key, ",")},`;
    });
    return `{\n${lines.join("\n")}\n${INDENT.repeat(indent)}}`;
  }
  return one; // a scalar longer than the line: Prettier leaves it too
}
