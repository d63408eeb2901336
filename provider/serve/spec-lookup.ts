/**
 * The spec table as the doors look it up: by resource kind (`Vpc`) or by either door's type token.
 * The table itself is generated (`generated/spec-table.ts`); the engine never reads it, it is handed each spec.
 */
import type { AnySpec } from "../engine/spec";
import { kindOfType } from "../engine/type-tokens";
import { RESOURCE_SPECS } from "../generated/spec-table";

/** The spec of a resource kind; throws naming the kind when this package has none. */
export function specOf(kind: string): AnySpec {
  const spec: AnySpec | undefined = RESOURCE_SPECS[kind];
  if (!spec) throw new Error(`pulumi-compute has no resource type ${kind}; is the installed package older than the program?`);
  return spec;
}

/** The spec of a Pulumi type token, through either door (`pulumi-nodejs:dynamic/compute:Vpc`, `compute:index:Vpc`). */
export function specForType(type: string): AnySpec | undefined {
  const kind = kindOfType(type);
  return kind === undefined ? undefined : RESOURCE_SPECS[kind];
}
