/**
 * Hands the detailed diff to the Pulumi engine. Pulumi's dynamic provider host (the
 * `pulumi-resource-pulumi-nodejs` process, `@pulumi/pulumi/cmd/dynamic-provider`) forwards only
 * `changes`, `replaces` and `deleteBeforeReplace` of a `diff` result (pulumi/pulumi#3080); without
 * more, `preview --diff` can name no property of a drift and no element of a list. So, in that
 * process only, the host's `DiffResponse.setChanges` also copies `diffs` and `detailedDiff` of the
 * result whose `changes` the host has just read: the host reads `result.changes` and calls
 * `setChanges` in the same synchronous step, so the pairing cannot mix two concurrent diffs.
 * Anywhere else (tests, another host) the result goes back unchanged and nothing is patched.
 */
import type { DiffKind, DiffResult } from "../engine/detailed-diff";
import { HOST_ENTRY } from "./entry";

interface PropertyDiffMessage {
  setKind(kind: number): PropertyDiffMessage;
  setInputdiff(input: boolean): PropertyDiffMessage;
}
interface DiffResponseMessage {
  setChanges(changes: number): DiffResponseMessage;
  setDiffsList(keys: string[]): DiffResponseMessage;
  setHasdetaileddiff(has: boolean): DiffResponseMessage;
  getDetaileddiffMap(): { set(key: string, value: PropertyDiffMessage): unknown };
}
interface ProviderProto {
  DiffResponse: { prototype: DiffResponseMessage; DiffChanges: { DIFF_SOME: number } };
  PropertyDiff: { new (): PropertyDiffMessage; Kind: Record<string, number> };
}

/** The result the host is about to copy into its response (set by the `changes` getter, taken by `setChanges`). */
let reading: DiffResult | undefined;
let patched: boolean | undefined;

/** Patches the host's `DiffResponse` once; false when this process is not the dynamic provider host. */
function patchHost(): boolean {
  if (patched !== undefined) return patched;
  patched = false;
  const main = require.main;
  if (!main || !HOST_ENTRY.test(main.filename)) return false;
  // The host's own copy of the protocol module, resolved from the host's file.
  const proto = main.require("../../proto/provider_pb") as ProviderProto;
  const setChanges = proto.DiffResponse.prototype.setChanges;
  proto.DiffResponse.prototype.setChanges = function (this: DiffResponseMessage, changes: number) {
    const result = reading;
    reading = undefined;
    setChanges.call(this, changes);
    if (result && changes === proto.DiffResponse.DiffChanges.DIFF_SOME) {
      this.setDiffsList(result.diffs);
      this.setHasdetaileddiff(true);
      const map = this.getDetaileddiffMap();
      for (const [path, { kind, inputDiff }] of Object.entries(result.detailedDiff)) {
        map.set(path, new proto.PropertyDiff().setKind(kindNumber(proto, kind)).setInputdiff(inputDiff));
      }
    }
    return this;
  };
  patched = true;
  return true;
}

const kindNumber = (proto: ProviderProto, kind: DiffKind): number => proto.PropertyDiff.Kind[kind.replace("-", "_").toUpperCase()]!;

/** The diff result as the host should see it: `changes` marks the result as the one being read. */
export function forHost(result: DiffResult): DiffResult {
  if (!patchHost()) return result;
  const { changes, ...rest } = result;
  return Object.defineProperty(rest, "changes", {
    enumerable: true,
    get: () => {
      reading = result;
      return changes;
    },
  }) as DiffResult;
}
