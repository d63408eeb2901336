/**
 * Outputs that are known once a create has finished (`OutputField.known`): what a program may rely
 * on after `up`, declared once per field and kept in every layer.
 * - **Types.** `KnownOutput` drops `null` from a known output, or from its known keys (the
 *   generated classes read it through `OutputOf`), so `db.hosts.apply((h) => h.primary)` is a
 *   `string`.
 * - **Create, adopt, update.** Once the `settle` hook is done, a known output the API left unset
 *   fails the operation naming it (`unsetKnown`, `unsetKnownMessage`): the object stays in state
 *   with the error (Pulumi's init error) and the next `up` settles it again. Never a silent `null`.
 * - **Read.** A refresh records the API's record as it is. A recorded object that lacks a known
 *   output (refreshed while still provisioning, say) diffs as an in-place update, which settles it
 *   (engine `diff`), so no program reads it unset from state.
 * - **Docs.** `outputText` is an output's description with what is always set and when it is null
 *   (`nullWhen`), for the generated TSDoc and the reference alike.
 */
import type { AnySpec, InputField, OutputField, Outputs } from "./spec";
import { isRecord } from "./values";

type KeysOf<P> = P extends readonly (infer K extends string)[] ? K : never;

/**
 * An output's type `T` as its field `F` promises it: without `null` when `known: true`; with its
 * known keys non-null when `known` lists them (the list must be written `as const`: a plain
 * `string[]` names no key the type can see, and promises nothing).
 */
export type KnownOutput<T, F> = F extends { known: true }
  ? NonNullable<T>
  : F extends { known: infer P extends readonly string[] }
    ? string extends KeysOf<P>
      ? T
      : NonNullable<T> & { [K in KeysOf<P> & keyof NonNullable<T>]-?: NonNullable<NonNullable<T>[K]> }
    : T;

const unset = (value: unknown): boolean => value === undefined || value === null;

/** The known outputs (`hosts.primary`, dotted for a key) that `outputs` lack: empty when the promise holds. */
export function unsetKnown(spec: AnySpec, outputs: Outputs): string[] {
  const missing: string[] = [];
  for (const [key, field] of Object.entries(spec.outputs)) {
    const known = field.known;
    if (known === undefined) continue;
    const value = outputs[key];
    if (known === true) {
      if (unset(value)) missing.push(key);
      continue;
    }
    for (const part of known) if (!isRecord(value) || unset(value[part])) missing.push(`${key}.${part}`);
  }
  return missing;
}

/** Why an operation that has finished fails: the API left unset what programs rely on. */
export function unsetKnownMessage(spec: AnySpec, id: string, missing: readonly string[], op: "create" | "update"): string {
  const what = missing.map((m) => `\`${m}\``).join(", ");
  return (
    `${spec.noun} ${id}: the API has not set ${what} although the ${op} has finished, and programs rely on ` +
    `${missing.length === 1 ? "it" : "them"} once it has (typed as always set). It stays recorded in the stack; ` +
    "the next `pulumi up` waits for it again."
  );
}

/** An output's (or an input's output's) description, with what is always set and when it is null. */
export function outputText(field: InputField | OutputField): string {
  const parts = [field.description];
  const known = "known" in field ? field.known : undefined;
  if (known === true) parts.push("Always set once created.");
  else if (known !== undefined && known.length > 0) {
    const keys = known.map((k) => `\`${k}\``).join(", ");
    parts.push(`${keys} ${known.length === 1 ? "is" : "are"} always set once created.`);
  }
  if ("nullWhen" in field && field.nullWhen) parts.push(field.nullWhen);
  return parts.join(" ");
}
