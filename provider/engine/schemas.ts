/**
 * Input schemas in the program's spelling, built on the sdk's: a value is mapped to its wire form
 * and validated by the sdk schema, so `check` reports the API's own reasons, on the program's
 * paths. Typed by what a program may write.
 */
import { z } from "zod";
import { camelText, snakeDeep, type Camelized } from "./values";

/** Where a `viaWire` schema keeps the sdk schema it wraps. */
const WIRE_SCHEMA = Symbol("wireSchema");

/**
 * The sdk's `schema` behind a natural spelling: `prepare` maps the program's value to the wire
 * form (a bare address to its /32, say) before the sdk validates it. `renamed` rewrites the paths'
 * keys and the texts of the issues (camelCase for a camelCased object).
 */
export function viaWire<In>(schema: z.ZodType, prepare: (value: unknown) => unknown, renamed?: (text: string) => string) {
  const wrapper = z
    .custom<In>(() => true)
    .superRefine((value, ctx) => {
      const parsed = schema.safeParse(prepare(value));
      if (parsed.success) return;
      for (const issue of parsed.error.issues) {
        const path = renamed ? issue.path.map((p) => (typeof p === "string" ? renamed(p) : p)) : issue.path;
        ctx.addIssue({ code: "custom", message: renamed ? renamed(issue.message) : issue.message, path });
      }
    });
  // Kept on the wrapper (not enumerable, so zod ignores it) for `wireSchemaOf`.
  Object.defineProperty(wrapper, WIRE_SCHEMA, { value: schema });
  return wrapper;
}

/**
 * The sdk schema behind a `viaWire` schema, if `schema` is one: the engine reads the wire keys
 * nested in it (so reasons naming them can be put in the program's words).
 */
export function wireSchemaOf(schema: z.ZodType): z.ZodType | undefined {
  return (schema as unknown as Record<symbol, z.ZodType | undefined>)[WIRE_SCHEMA];
}

/** An sdk object schema in camelCase (`hourOfDay` for `hour_of_day`), at any depth, with its reasons naming the camelCase fields. */
export function camelCased<S extends z.ZodType>(schema: S) {
  return viaWire<Camelized<z.input<S>>>(schema, snakeDeep, camelText);
}
