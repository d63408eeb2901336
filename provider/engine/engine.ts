/**
 * The one engine every resource shares: it turns a `AnySpec` into the methods of a Pulumi
 * dynamic provider. `check` validates inputs with the spec's schemas (the sdk's, so texts match
 * the API) and lets preview's unknown values through; `diff` compares managed fields only, after
 * normalization, and never looks at `__provider`; the wire mapping goes both ways — request
 * bodies from the inputs' declarations (wire names, which body, wire form, defaults), outputs from
 * the record, and API errors and sdk rule failures back to the program's input names;
 * create/read/update/delete wrap the hooks with deadlines, adoption, orphan protection; a read with
 * nothing recorded is Pulumi's import (`import-inputs.ts`), whose check refuses what differs.
 *
 * Each part has its file, which a resource may import alone: `check.ts`, `diff.ts`, `wire.ts`,
 * `lifecycle.ts` (create, read, update, delete) and `errors.ts`. This one puts them together as
 * a provider's methods (`makeProvider`) and re-exports what a resource or a door uses.
 */
import type * as pulumi from "@pulumi/pulumi";
import { checkAndDerive } from "./check";
import type { ProviderContext } from "./context";
import type { DiffResult } from "./detailed-diff";
import { diff } from "./diff";
import { importCheck, importRead, isImportRead, refuseImportChanges } from "./import-inputs";
import { create, read, remove, update } from "./lifecycle";
import { withoutProvider, type AnySpec, type Inputs, type Outputs } from "./spec";

export { check, checkAndDerive } from "./check";
export { changedFields, diff, sameValue, type FieldChanges } from "./diff";
export { GaveUpWaiting, PartialApplyError, ResourceInitError, explain, inputName } from "./errors";
export { previewUpdate, readObject, refreshedInputs } from "./lifecycle";
export { UNKNOWN } from "./values";
export { createBody, fieldsBody, toOutputs, updateBody, wireBody, wirePath } from "./wire";

type DynamicProvider = Required<Pick<pulumi.dynamic.ResourceProvider, "check" | "create" | "delete">> & {
  /**
   * The diff with its detailed diff, which a door passes on (`DiffResult`). `ignoreChanges`: the
   * resource option's paths, as the door's request carries them (`DiffRequest.ignoreChanges`).
   */
  diff(id: string, olds: Outputs, news: Inputs, ignoreChanges?: readonly string[]): Promise<DiffResult>;
  /** An in-place update; `ignoreChanges` as the door's request carries them (`UpdateRequest.ignoreChanges`). */
  update(id: string, olds: Outputs, news: Inputs, ignoreChanges?: readonly string[]): Promise<pulumi.dynamic.UpdateResult>;
  /** `inputs`: the recorded inputs, where the door has them (the plugin's ReadRequest); else the outputs stand in. */
  read(id: string, props?: Outputs, inputs?: Inputs): Promise<pulumi.dynamic.ReadResult>;
};

/** Builds the provider methods of one resource type. */
export function makeProvider(spec: AnySpec, context: () => ProviderContext): DynamicProvider {
  return {
    check: async (olds, news) => importCheck(spec, context(), await checkAndDerive(spec, olds ?? {}, news, context)),
    diff: async (id, olds, news, ignoreChanges = []) => {
      spec.declare?.({ ctx: context(), id, inputs: withoutProvider(news) });
      const result = diff(spec, olds, news, ignoreChanges);
      refuseImportChanges(spec, context(), id, withoutProvider(olds), result);
      // What the update does beside its fields (a reboot), said at preview as at up.
      if (result.changes && (result.replaces ?? []).length === 0) {
        for (const effect of spec.updateEffects?.(withoutProvider(olds), withoutProvider(news), result.diffs) ?? []) {
          context().progress(effect);
        }
      }
      return result;
    },
    create: async (inputs) => {
      const created = await create(spec, context(), inputs);
      spec.declare?.({ ctx: context(), id: created.id, inputs: withoutProvider(inputs) });
      return created;
    },
    // Nothing recorded: Pulumi's import by id, answered with the inputs that manage the object as it is.
    read: async (id, props, inputs?: Inputs) =>
      isImportRead(props, inputs) ? ((await importRead(spec, context(), id)) ?? {}) : read(spec, context(), id, props ?? {}, inputs),
    update: async (id, olds, news, ignoreChanges = []) => {
      const updated = await update(spec, context(), id, olds, news, ignoreChanges);
      spec.declare?.({ ctx: context(), id, inputs: withoutProvider(news) });
      return updated;
    },
    delete: (id, props) => remove(spec, context(), id, props),
  };
}
