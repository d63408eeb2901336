/**
 * A refresh's events turned into a drift report (managed fields only), for stacks driven through
 * Pulumi's Automation API. Used by the demo, the tests, the drift command and `pulumi-compute/testing`.
 *
 * A field under a resource's `ignoreChanges` is listed apart, as ignored: `up` leaves it as the
 * cloud has it, so it is nothing to restore. The engine's events do not carry the option; the
 * stack's state does (each resource's `ignoreChanges`, as its last `up` registered it), so
 * `previewDrift` reads both.
 */
import type { EngineEvent, Stack } from "@pulumi/pulumi/automation";
import { managedChanges, type DriftEntry } from "../engine/managed-drift";
import { specForType } from "../serve/spec-lookup";

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

/** Each resource's `ignoreChanges` (property paths), by URN; resources without the option are absent. */
export type IgnoreChangesByUrn = ReadonlyMap<string, readonly string[]>;

/** What a refresh found: resources read, drift to restore, and differences the program's `ignoreChanges` leaves alone. */
export interface RefreshFindings {
  resources: number;
  drift: ResourceDrift[];
  ignored: ResourceDrift[];
}

/** What a refresh (or a refresh preview) read and found changed, from its engine events. */
export function refreshFindings(events: EngineEvent[], ignoring: IgnoreChangesByUrn = new Map()): RefreshFindings {
  const resources = events.filter((e) => e.resourcePreEvent && isProgramResource(e.resourcePreEvent.metadata.type)).length;
  return { resources, ...changesFromEvents(events, ignoring) };
}

/**
 * The `ignoreChanges` of every resource of an exported stack (`pulumi stack export`: the
 * checkpoint's `resources[].ignoreChanges`, which the engine writes from the option the program
 * registered at its last `up`, through the classes or the plugin alike).
 */
export function ignoreChangesOf(deployment: unknown): Map<string, string[]> {
  const resources = (deployment as { resources?: { urn?: unknown; ignoreChanges?: unknown }[] } | undefined)?.resources ?? [];
  const found = new Map<string, string[]>();
  for (const r of resources) {
    if (typeof r.urn === "string" && Array.isArray(r.ignoreChanges) && r.ignoreChanges.length > 0)
      found.set(
        r.urn,
        r.ignoreChanges.filter((p): p is string => typeof p === "string"),
      );
  }
  return found;
}

/**
 * A refresh preview of `stack` (nothing written) and what it found, each field under its
 * resource's `ignoreChanges` listed as ignored. The state is exported while the preview runs.
 */
export async function previewDrift(
  stack: Stack,
  options: { onEvent?: (event: EngineEvent) => void; signal?: AbortSignal } = {},
): Promise<RefreshFindings & { events: EngineEvent[] }> {
  const events: EngineEvent[] = [];
  const [exported] = await Promise.all([
    stack.exportStack(),
    stack.previewRefresh({
      onEvent: (e) => {
        events.push(e);
        options.onEvent?.(e);
      },
      ...(options.signal ? { signal: options.signal } : {}),
    }),
  ]);
  return { ...refreshFindings(events, ignoreChangesOf(exported.deployment)), events };
}

/** What the drift report says of an object that a refresh found deleted outside Pulumi. */
export const GONE = { field: "(the object)", cloud: "gone" } as const;

/**
 * Managed fields that a refresh found changed, from that refresh's engine events, and objects it
 * found gone (a refresh deletes them from state; a refresh preview plans that delete).
 */
export function driftFromEvents(events: EngineEvent[]): ResourceDrift[] {
  return changesFromEvents(events).drift;
}

/** `driftFromEvents`, with the differences under a resource's `ignoreChanges` (by URN in `ignoring`) apart. */
export function changesFromEvents(
  events: EngineEvent[],
  ignoring: IgnoreChangesByUrn = new Map(),
): { drift: ResourceDrift[]; ignored: ResourceDrift[] } {
  const gone = new Set<string>();
  const found = { drift: [] as ResourceDrift[], ignored: [] as ResourceDrift[] };
  for (const event of events) {
    const meta = event.resOutputsEvent?.metadata ?? event.resourcePreEvent?.metadata;
    if (!meta) continue;
    if (meta.op === "delete") {
      // An object gone is drift whatever the program ignores: `up` creates it again.
      const spec = specForType(meta.type);
      if (!spec || gone.has(meta.urn)) continue;
      gone.add(meta.urn);
      found.drift.push({
        resource: meta.urn.split("::").pop()!,
        type: spec.name,
        field: GONE.field,
        state: `id ${String(meta.old?.id ?? "?")}`,
        cloud: GONE.cloud,
      });
      continue;
    }
    // A refresh whose only differences lie under `ignoreChanges` is `same`: the engine's refresh diff
    // passes the option to the provider, whose diff leaves them out (`engine/ignore-changes.ts`).
    // They are still listed as ignored; drift comes from the refreshes the engine found changed.
    if (!event.resOutputsEvent || (meta.op !== "update" && meta.op !== "same") || !meta.old || !meta.new) continue;
    const changes = changesBetween(meta.type, meta.urn, meta.old.outputs, meta.new.outputs, meta.old.inputs, ignoring.get(meta.urn));
    if (meta.op === "update") found.drift.push(...changes.drift);
    found.ignored.push(...changes.ignored);
  }
  return found;
}

/**
 * Managed fields of one resource whose value differs between two records of its outputs (state
 * before and after a refresh), counting only the fields the program gave (`given`, the state's
 * inputs), the differences its `ignoreChanges` covers apart; none for types that are not this package's.
 */
export function changesBetween(
  type: string,
  urn: string,
  recorded: Record<string, unknown>,
  actual: Record<string, unknown>,
  given?: Record<string, unknown>,
  ignoreChanges: readonly string[] = [],
): { drift: ResourceDrift[]; ignored: ResourceDrift[] } {
  const spec = specForType(type);
  if (!spec) return { drift: [], ignored: [] };
  const resource = urn.split("::").pop()!;
  const named = (entry: DriftEntry): ResourceDrift => ({ resource, type: spec.name, ...entry });
  const { drift, ignored } = managedChanges(spec, recorded, actual, given, ignoreChanges);
  return { drift: drift.map(named), ignored: ignored.map(named) };
}
