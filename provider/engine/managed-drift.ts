/**
 * Drift: managed fields whose value in the cloud differs from the value recorded in state.
 * Output-only fields (timestamps, computed lists) change on their own and are not drift.
 */
import { sameValue } from "./diff";
import type { AnySpec, Outputs } from "./spec";

export interface DriftEntry {
  field: string;
  /** The value in state before the refresh. */
  state: unknown;
  /** The value the API reports now. */
  cloud: unknown;
}

/**
 * The managed fields of one resource that differ between two records of its outputs. `given`, the
 * resource's inputs as the program gave them (the state's `inputs`), limits it to the fields the
 * program manages, as the engine's diff does: a field the program leaves out and that has no
 * `default` is the cloud's to change (a firewall's rules when `FirewallRule`s add them, its
 * devices when `FirewallDevice`s attach them), never drift.
 */
export function managedDrift(spec: AnySpec, recorded: Outputs, actual: Outputs, given?: Outputs): DriftEntry[] {
  const drift: DriftEntry[] = [];
  for (const [field, input] of Object.entries(spec.inputs)) {
    if (given && given[field] === undefined && input.default === undefined) continue;
    if (!sameValue(input, recorded[field], actual[field], recorded)) drift.push({ field, state: recorded[field], cloud: actual[field] });
  }
  return drift;
}
