/**
 * A refresh's events turned into a drift report (managed fields only), for stacks driven through
 * Pulumi's Automation API. Used by the demo, the tests and the drift command.
 */
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { managedDrift, type DriftEntry } from "../engine/managed-drift";
import { specForType } from "../serve/specs";

/**
 * A managed field of one resource that differs between state and the cloud: `field` (the input),
 * `state` (its value in state) and `cloud` (its value now); or an object gone (`field` is `(the
 * object)`, `cloud` is `gone`).
 */
export interface ResourceDrift extends DriftEntry {
  /** The resource's name in the program. */
  resource: string;
  /** The resource's kind: `Vpc`, `MysqlDatabase`. */
  type: string;
}

/** The stack itself and providers are the engine's own, not resources of the program. */
export function isProgramResource(type: string): boolean {
  return !type.startsWith("pulumi:");
}

/** What a refresh (or a refresh preview) read and found changed, from its engine events. */
export function refreshFindings(events: EngineEvent[]): { resources: number; drift: ResourceDrift[] } {
  const resources = events.filter((e) => e.resourcePreEvent && isProgramResource(e.resourcePreEvent.metadata.type)).length;
  return { resources, drift: driftFromEvents(events) };
}

/** What the drift report says of an object that a refresh found deleted outside Pulumi. */
export const GONE = { field: "(the object)", cloud: "gone" } as const;

/**
 * Managed fields that a refresh found changed, from that refresh's engine events, and objects it
 * found gone (a refresh deletes them from state; a refresh preview plans that delete).
 */
export function driftFromEvents(events: EngineEvent[]): ResourceDrift[] {
  const gone = new Set<string>();
  return events.flatMap((event) => {
    const meta = event.resOutputsEvent?.metadata ?? event.resourcePreEvent?.metadata;
    if (!meta) return [];
    if (meta.op === "delete") {
      const spec = specForType(meta.type);
      if (!spec || gone.has(meta.urn)) return [];
      gone.add(meta.urn);
      return [
        {
          resource: meta.urn.split("::").pop()!,
          type: spec.name,
          field: GONE.field,
          state: `id ${String(meta.old?.id ?? "?")}`,
          cloud: GONE.cloud,
        },
      ];
    }
    if (!event.resOutputsEvent || meta.op !== "update" || !meta.old || !meta.new) return [];
    return driftBetween(meta.type, meta.urn, meta.old.outputs, meta.new.outputs, meta.old.inputs);
  });
}

/**
 * Managed fields of one resource whose value differs between two records of its outputs (state
 * before and after a refresh), counting only the fields the program gave (`given`, the state's
 * inputs); none for types that are not this package's.
 */
export function driftBetween(
  type: string,
  urn: string,
  recorded: Record<string, unknown>,
  actual: Record<string, unknown>,
  given?: Record<string, unknown>,
): ResourceDrift[] {
  const spec = specForType(type);
  if (!spec) return [];
  const resource = urn.split("::").pop()!;
  return managedDrift(spec, recorded, actual, given).map((entry) => ({ resource, type: spec.name, ...entry }));
}
