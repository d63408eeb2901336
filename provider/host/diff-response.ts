/**
 * Hands the detailed diff to the Pulumi engine. Pulumi's dynamic provider host
 * (`@pulumi/pulumi/cmd/dynamic-provider`) forwards only `changes`, `replaces` and
 * `deleteBeforeReplace` of a `diff` result (pulumi/pulumi#3080); without more, `preview --diff`
 * can name no property of a drift and no element of a list. So, in that process only, the host's
 * `DiffResponse.setChanges` also copies `diffs` and `detailedDiff` of the result whose `changes`
 * the host has just read: the host reads `result.changes` and calls `setChanges` in the same
 * synchronous step (pinned by `test/provider/host/preview.test.ts`), so the pairing cannot mix two
 * concurrent diffs.
 *
 * It fails closed: every message, setter and enum value it uses must be in the host's protocol
 * (`undiffable`), or the protocol is left as it is and the reason is said once (`notice.ts`). The
 * preload (`preload.ts`) decides at the host's start; under another launcher (Pulumi's own, which
 * a project without this package's plugin declaration gets) the first diff decides. Anywhere else
 * (tests, a program) the result goes back unchanged and nothing is patched.
 */
import {
  DIFF_KINDS,
  protocolKind,
  writeDetailedDiff,
  type DiffResponseMessage,
  type DiffResult,
  type PropertyDiffMessages,
} from "../engine/detailed-diff";
import { decideInHost, missingMethod, type HostDecision, type ProtoModule } from "./modules";

/** The process's one decision and the result being read, shared by every copy of this package in the process. */
interface DiffState extends HostDecision {
  /** The result the host is about to copy into its response (set by the `changes` getter, taken by `setChanges`). */
  reading?: DiffResult;
}
const STATE = Symbol.for("pulumi-compute.detailed-diff");
const state = (): DiffState | undefined => (globalThis as Record<symbol, DiffState | undefined>)[STATE];
const decide = (decided: DiffState): DiffState => ((globalThis as Record<symbol, DiffState>)[STATE] = decided);

type HostDiffResponse = Omit<DiffResponseMessage, "getDetaileddiffMap"> & {
  setChanges(changes: number): HostDiffResponse;
  getDetaileddiffMap(): Partial<ReturnType<DiffResponseMessage["getDetaileddiffMap"]>> | undefined;
};

/** Why the protocol cannot carry detailed diffs as this module writes them, or undefined when it can. */
export function undiffable(proto: ProtoModule): string | undefined {
  const missing = missingMethod(proto, [
    ["DiffResponse", "setChanges"],
    ["DiffResponse", "setDiffsList"],
    ["DiffResponse", "setHasdetaileddiff"],
    ["DiffResponse", "getDetaileddiffMap"],
    ["PropertyDiff", "setKind"],
    ["PropertyDiff", "setInputdiff"],
  ]);
  if (missing) return missing;
  const changes = proto.DiffResponse!.DiffChanges as Record<string, unknown> | undefined;
  if (typeof changes?.DIFF_SOME !== "number") return "the protocol has no DiffResponse.DiffChanges.DIFF_SOME";
  const kinds = proto.PropertyDiff!.Kind as Record<string, unknown> | undefined;
  const kind = DIFF_KINDS.map(protocolKind).find((k) => typeof kinds?.[k] !== "number");
  return kind && `the protocol has no PropertyDiff.Kind.${kind}`;
}

/**
 * Patches the host's `DiffResponse.setChanges` once per process, unless the protocol lacks a
 * part; returns why it did not, or undefined when it did (or already had).
 */
export function installDetailedDiff(proto: ProtoModule): string | undefined {
  const decided = state();
  if (decided) return decided.reason;
  const reason = undiffable(proto);
  if (reason) return decide({ patched: false, reason }).reason;
  const response = proto.DiffResponse!;
  const messages = { PropertyDiff: proto.PropertyDiff, kinds: proto.PropertyDiff!.Kind } as unknown as PropertyDiffMessages;
  const some = (response.DiffChanges as Record<string, number>).DIFF_SOME!;
  const setChanges = response.prototype.setChanges as HostDiffResponse["setChanges"];
  const shared = decide({ patched: true });
  response.prototype.setChanges = function (this: HostDiffResponse, changes: number) {
    const result = shared.reading;
    shared.reading = undefined;
    setChanges.call(this, changes);
    const map = result && changes === some ? this.getDetaileddiffMap() : undefined;
    // A map without `set` (a reshaped message) keeps the response as the host made it.
    if (result && typeof map?.set === "function") writeDetailedDiff(this as unknown as DiffResponseMessage, result, messages);
    return this;
  };
  return undefined;
}

/**
 * Decides under a launcher that did not preload this package: when this process runs the host,
 * patch it from the host's own protocol. Returns why detailed diffs are off, if they are.
 */
export function detailedDiffInHost(): string | undefined {
  return decideInHost(state(), decide, installDetailedDiff);
}

/** The diff result as the host should see it: `changes` marks the result as the one being read. */
export function forHost(result: DiffResult): DiffResult {
  detailedDiffInHost();
  const shared = state();
  if (!shared?.patched) return result;
  const { changes, ...rest } = result;
  return Object.defineProperty(rest, "changes", {
    enumerable: true,
    get: () => {
      shared.reading = result;
      return changes;
    },
  }) as DiffResult;
}
