/**
 * Drift: managed fields whose value in the cloud differs from the value recorded in state.
 * Output-only fields (timestamps, computed lists) change on their own and are not drift, and a
 * field under the resource's `ignoreChanges` is the cloud's to change: listed apart, as ignored.
 */
import { sameValue } from "./diff";
import { keptIgnored } from "./ignore-changes";
import type { AnySpec, InputField, Outputs } from "./spec";

/** The key of Pulumi's marker of a secret; an exported state and the CLI's event log hold each secret as its `ciphertext`. */
const SECRET_MARKER = "4dabf18193072939515e22adb298388d";

/** A secret as a ciphertext: the engine encrypts a secret anew at each write, so two ciphertexts of one value differ. */
const sealed = (value: unknown): boolean => typeof value === "object" && value !== null && SECRET_MARKER in value && "ciphertext" in value;

export interface DriftEntry {
  field: string;
  /** The value in state before the refresh. */
  state: unknown;
  /** The value the API reports now. */
  cloud: unknown;
}

/** A resource's differing managed fields: `drift`, which `up` sets back, and `ignored`, which its `ignoreChanges` leaves as the cloud has them. */
export interface ManagedChanges {
  drift: DriftEntry[];
  ignored: DriftEntry[];
}

/**
 * The managed fields of one resource that differ between two records of its outputs. `given`, the
 * resource's inputs as the program gave them (the state's `inputs`), limits it to the fields the
 * program manages, as the engine's diff does: a field the program leaves out and that has no
 * `default` is the cloud's to change (a firewall's rules when `FirewallRule`s add them, its
 * devices when `FirewallDevice`s attach them), never drift. `ignoreChanges`, the resource option
 * as state records it, moves the differences it covers to `ignored`.
 */
export function managedChanges(
  spec: AnySpec,
  recorded: Outputs,
  actual: Outputs,
  given?: Outputs,
  ignoreChanges: readonly string[] = [],
): ManagedChanges {
  const found: ManagedChanges = { drift: [], ignored: [] };
  for (const [field, input] of Object.entries(spec.inputs)) {
    if (given && given[field] === undefined && input.default === undefined) continue;
    if (sameValue(input, recorded[field], actual[field], recorded)) continue;
    // Two ciphertexts say nothing of their values (an Instance's rootPass, which the API never returns, after a refresh).
    if (sealed(recorded[field]) && sealed(actual[field])) continue;
    const entry = { field, state: recorded[field], cloud: actual[field] };
    const ignored = ignoreChanges.length > 0 && ignoredChange(field, input, recorded[field], actual[field], ignoreChanges, recorded);
    found[ignored ? "ignored" : "drift"].push(entry);
  }
  return found;
}

/**
 * Whether the difference in `field` between `state` and `cloud` lies wholly under paths that
 * `ignoreChanges` names: the whole field (`label`, `*`), or parts of it (`tags[0]`), in which case
 * the field is ignored only when putting state's values back at those parts leaves no difference.
 */
export function ignoredChange(
  field: string,
  input: InputField,
  state: unknown,
  cloud: unknown,
  ignoreChanges: readonly string[],
  recorded: Outputs = {},
): boolean {
  return sameValue(input, state, keptIgnored(field, cloud, state, ignoreChanges), recorded);
}

/** The drift of `managedChanges` for a resource without `ignoreChanges`. */
export function managedDrift(spec: AnySpec, recorded: Outputs, actual: Outputs, given?: Outputs): DriftEntry[] {
  return managedChanges(spec, recorded, actual, given).drift;
}
