/**
 * Runtime checks of answers against the client's declared interfaces. A `Shape<T>` names every key
 * of the client's `T` (the compiler refuses a missing or invented key), says which JS types the
 * value may have (the compiler refuses a type `T` does not allow for that key), and marks the
 * client's optional keys `opt` (the compiler insists on it, so "required" means what `T` says).
 * A required key that a 4.174 record does not have is `later`, with the reason: it is checked
 * only when present. A JS type the API documents beyond the client's declaration is `wider`.
 */

type JsName<V> = V extends string
  ? "string"
  : V extends number
    ? "number"
    : V extends boolean
      ? "boolean"
      : V extends null
        ? "null"
        : V extends readonly unknown[]
          ? "array"
          : V extends object
            ? "object"
            : never;

type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];

interface ReqCheck<N> {
  kind: "required";
  types: readonly N[];
}
interface OptCheck<N> {
  kind: "optional";
  types: readonly N[];
}
interface LaterCheck<N> {
  kind: "later";
  types: readonly N[];
  why: string;
}

/** A JS type the API's documentation allows where the client declares a narrower one; `why` cites it. */
interface WiderCheck {
  kind: "wider";
  types: readonly string[];
  why: string;
}

export type Shape<T> = {
  [K in keyof T]-?: K extends OptionalKeys<T>
    ? OptCheck<JsName<Exclude<T[K], undefined>>> | WiderCheck
    : ReqCheck<JsName<T[K]>> | LaterCheck<JsName<T[K]>> | WiderCheck;
};

export const is = <N extends string>(...types: N[]): ReqCheck<N> => ({ kind: "required", types });
export const opt = <N extends string>(...types: N[]): OptCheck<N> => ({ kind: "optional", types });
/** A key the client requires that API 4.174's record does not have; `why` says where it comes from. */
export const later = <N extends string>(why: string, ...types: N[]): LaterCheck<N> => ({ kind: "later", types, why });

/** The value may also be of `types`, which the API documents and the client's declaration leaves out. */
export const wider = (why: string, ...types: string[]): WiderCheck => ({ kind: "wider", types, why });

function jsName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** Every difference of `value` from `shape`, as `name.key: problem`. */
export function shapeProblems<T>(name: string, value: T, shape: Shape<T>): string[] {
  if (value === null || typeof value !== "object") return [`${name}: ${jsName(value)}, not an object`];
  const record = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const [key, check] of Object.entries(shape) as Array<
    [string, ReqCheck<string> | OptCheck<string> | LaterCheck<string> | WiderCheck]
  >) {
    if (!(key in record) || record[key] === undefined) {
      if (check.kind === "required") problems.push(`${name}.${key}: missing`);
      continue;
    }
    const got = jsName(record[key]);
    if (!check.types.includes(got)) problems.push(`${name}.${key}: ${got}, the client declares ${check.types.join(" | ")}`);
  }
  return problems;
}
