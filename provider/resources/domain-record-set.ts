/**
 * `compute:DomainRecordSet`: many records of one domain as one resource. Each record is declared
 * with the same fields, natural spellings and normalization as a `DomainRecord`
 * (`record-common.ts`), and told apart by a key (`recordKey`), so `preview --diff` prints each
 * record that is added, changed or removed, with its values. One resource instead of one per
 * record: the engine's per-resource cost (a step, a checkpoint write) is paid once, and every change
 * costs exactly one request (POST, PUT or DELETE of that record) plus O(1) reads of the zone.
 *
 * - `exclusive: false` (the default) manages only the declared records; `true` makes the zone hold
 *   exactly them, deleting any other record (read lists the whole zone, so a record added behind
 *   Pulumi's back shows as one to delete).
 * - Changes go out with bounded concurrency: deletions first (a CNAME may need its name freed),
 *   then updates, then creations. When some fail, the others in flight finish, and state records
 *   exactly what was applied (`PartialApplyError`); the next `up` applies the rest.
 * - A read lists the zone's records once (pages of 500), so drift is found per record: a changed
 *   field, a record deleted behind Pulumi's back (it disappears from state, so the next `up`
 *   recreates it).
 */
import { z } from "zod";
import type { ComputeClient } from "../../sdk/client";
import { recordRuleErrors, srvRecordName, type DomainRecord, type RecordFields } from "../../sdk/resources/domains";
import { keyedChanges } from "../engine/detailed-diff";
import { PartialApplyError, explain, fieldsBody } from "../engine/engine";
import { resourceSpec, type Failure, type InputField, type Outputs, type Values } from "../engine/spec";
import { camelizeDeep, canonicalJson, isRecord, isUnknown, toSnake } from "../engine/values";
import type { ProviderContext } from "../engine/context";
import { postExactlyOnce } from "../engine/natural-key";
import { MINUTE, apiId, parentIdField } from "./common";
import { RECORD_FIELDS } from "./record-common";

/** How many record requests one set keeps in flight: well under the API's per-operation limits, enough to hide latency. */
export const RECORD_SET_CONCURRENCY = 8;

type RecordField = InputField & (typeof RECORD_FIELDS)[keyof typeof RECORD_FIELDS];
const FIELDS = RECORD_FIELDS as Record<keyof typeof RECORD_FIELDS, RecordField>;
const FIELD_KEYS = Object.keys(FIELDS) as Array<keyof typeof RECORD_FIELDS>;

/** One declared record: the `DomainRecord` fields, in the program's spelling. */
const RecordInput = z.strictObject(
  Object.fromEntries(FIELD_KEYS.map((k) => [k, FIELDS[k].required ? FIELDS[k].schema : FIELDS[k].schema.optional()])) as {
    [K in keyof typeof RECORD_FIELDS]: (typeof RECORD_FIELDS)[K] extends { required: true }
      ? (typeof RECORD_FIELDS)[K]["schema"]
      : z.ZodOptional<(typeof RECORD_FIELDS)[K]["schema"]>;
  },
);

/**
 * A record in its canonical form for comparing, given the zone's name: each field normalized as
 * `DomainRecord` normalizes it, absent fields as their defaults, fields that do not apply to the
 * type (a priority on an A record) left out. Program records and the API's records both go through it.
 */
export function canonicalRecord(record: unknown, zone: string | undefined): Values {
  if (!isRecord(record)) return {};
  const context = { domain: zone, type: record.type, service: record.service, protocol: record.protocol };
  const canonical: Values = {};
  for (const key of FIELD_KEYS) {
    const field = FIELDS[key];
    const value = record[key] ?? ("default" in field ? field.default : undefined);
    if (value === undefined || value === null) continue;
    if (field.toWire && field.toWire(value, { type: record.type }) === undefined) continue;
    canonical[key] = field.normalize ? field.normalize(value, context) : value;
  }
  return canonical;
}

/** The base of a record's key: its name as the zone shows it (`@` for the apex, SRV with its prefix) and its type. */
function baseKey(record: Values): string {
  const name = String(record.name ?? "");
  const full = record.type === "SRV" ? srvRecordName(String(record.service ?? ""), String(record.protocol ?? ""), name) : name;
  return `${full || "@"} ${String(record.type)}`;
}

/**
 * The keys of canonical records, both lists together: `name type` (`www A`, `@ MX`), and when
 * either list holds that name and type more than once, the target too (`www A 192.0.2.1`; a CAA
 * record's tag before it). Records identical in all of that are numbered (`… #2`). So a key
 * stays the same while its record changes, and a second record of the same name and type adds
 * one record rather than replacing the first.
 */
export function recordKeys(olds: unknown[], news: unknown[]): { olds: string[]; news: string[] } {
  const count = (list: unknown[]) => {
    const counts = new Map<string, number>();
    for (const r of list) counts.set(baseKey(r as Values), (counts.get(baseKey(r as Values)) ?? 0) + 1);
    return counts;
  };
  const [oldCounts, newCounts] = [count(olds), count(news)];
  const keysOf = (list: unknown[]) => {
    const seen = new Map<string, number>();
    return list.map((r) => {
      const record = r as Values;
      const base = baseKey(record);
      const repeated = (oldCounts.get(base) ?? 0) > 1 || (newCounts.get(base) ?? 0) > 1;
      const key = repeated
        ? [base, record.type === "CAA" ? record.tag : undefined, record.target].filter((p) => p !== undefined).join(" ")
        : base;
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      return n === 1 ? key : `${key} #${n}`;
    });
  };
  return { olds: keysOf(olds), news: keysOf(news) };
}

const RECORDS_FIELD = {
  schema: z.array(RecordInput),
  required: true,
  send: "never",
  normalize: (value: unknown, recorded: Outputs): unknown =>
    Array.isArray(value) ? value.map((r) => canonicalRecord(r, typeof recorded.domain === "string" ? recorded.domain : undefined)) : value,
  elementKeys: recordKeys,
  // Recorded as the API has them, with ids known only once made; exclusive mode records the whole zone.
  recomputedBy: ["records", "exclusive"],
  description:
    "The records, each with the fields of a `DomainRecord` (`type`, `name`, `target`, `ttlSec`, `priority`, `weight`, `port`, `service`, `protocol`, `tag`) and the same spellings. Each is known by its key: `name type` (`www A`, `@ MX`, `_sip._tcp SRV`), with the target added (and a CAA record's tag) where the name and type repeat (`www A 192.0.2.1`); the order does not matter.",
} as const satisfies InputField;

/** What the hooks return: the domain's id and name, and the records this set manages as the API has them. */
type RecordSetState = { id: number; domain: string; records: DomainRecord[] };

/** The fields of an API record the set keeps in state: its id and its record fields (no timestamps: state grows with every record). */
const KEPT = ["id", ...FIELD_KEYS.map(toSnake)];
const kept = (record: DomainRecord) => Object.fromEntries(KEPT.filter((k) => k in record).map((k) => [k, record[k]])) as DomainRecord;

/** Records in state (camelCase, with their API ids), whatever an older version wrote. */
const stateRecords = (state: Values): Values[] => (Array.isArray(state.records) ? state.records.filter(isRecord) : []);

/** One request of a plan: create a declared record, update a recorded one, or delete one. */
type Step =
  | { kind: "create"; key: string; body: Values; record: Values }
  | { kind: "update"; key: string; id: number; body: Values }
  | { kind: "delete"; key: string; id: number };

/**
 * The requests that bring `current` (records as the API has them, camelCase, with ids) to the
 * declared records: the same element changes `diff` shows, by the same keys.
 */
function plan(current: Values[], declared: unknown[], zone: string): Step[] {
  const records = declared.filter(isRecord);
  const idOf = (i: number) => apiId(current[i]!.id);
  const body = (i: number, op: "create" | "update") =>
    fieldsBody(FIELDS, records[i]!, op === "create" ? FIELD_KEYS : FIELD_KEYS.filter((k) => k !== "type"), op, op === "update");
  return keyedChanges(RECORDS_FIELD, current, records, { domain: zone }).map((c): Step => {
    if (c.kind === "add") return { kind: "create", key: c.key, body: body(c.newIndex!, "create"), record: records[c.newIndex!]! };
    if (c.kind === "update") return { kind: "update", key: c.key, id: idOf(c.oldIndex!), body: body(c.newIndex!, "update") };
    return { kind: "delete", key: c.key, id: idOf(c.oldIndex!) };
  });
}

/**
 * The zone's records (camelCase, with ids) that are identical, field for field after
 * normalization, to `wanted` records: each zone record matched at most once, those in `taken`
 * never. A set takes such a record over rather than creating its twin (a zone gains nothing from
 * two identical records), so a run that was cut off, or a zone made by hand, converges without
 * duplicates.
 */
export function claim(zone: string, existing: Values[], wanted: Values[], taken: ReadonlySet<number>): Values[] {
  const pool = new Map<string, Values[]>();
  for (const record of existing) {
    if (taken.has(apiId(record.id))) continue;
    const text = canonicalJson(canonicalRecord(record, zone));
    const same = pool.get(text);
    if (same) same.push(record);
    else pool.set(text, [record]);
  }
  const claimed: Values[] = [];
  for (const record of wanted) {
    const match = pool.get(canonicalJson(canonicalRecord(record, zone)))?.shift();
    if (match) claimed.push(match);
  }
  return claimed;
}

/** What `apply` needs besides the plan: the zone, and for creates that fail ambiguously, the zone's record ids before it began. */
interface ApplyContext {
  client: ComputeClient;
  domainId: number;
  zone: string;
  /** Ids of the zone's records listed before the plan (a plan that creates nothing needs none). */
  before: ReadonlySet<number>;
  progress: (message: string) => void;
  signal: AbortSignal;
}

/**
 * POSTs one declared record exactly once (`postExactlyOnce`): after an ambiguous failure the zone
 * is listed again, and a record identical to the declared one that was neither there before the
 * plan nor held by this apply is the request's.
 */
function createOnce(at: ApplyContext, step: Extract<Step, { kind: "create" }>, held: ReadonlyMap<number, unknown>): Promise<DomainRecord> {
  const records = at.client.domains.records;
  return postExactlyOnce({
    what: `records[${JSON.stringify(step.key)}]`,
    post: () => records.create(at.domainId, step.body as never, { signal: at.signal }),
    made: async () =>
      (await records.listAll(at.domainId, { signal: at.signal })).filter(
        (r) => !at.before.has(r.id) && !held.has(r.id) && sameRecord(at.zone, r, step.record),
      ),
    idOf: (record) => record.id,
    progress: at.progress,
  });
}

/** Whether an API record is identical to a declared one, as `diff` compares them. */
const sameRecord = (zone: string, record: DomainRecord, declared: Values) =>
  canonicalJson(canonicalRecord(asOutputs([record])[0], zone)) === canonicalJson(canonicalRecord(declared, zone));

/**
 * Runs `work` over `items` with at most `limit` in flight. After a failure no new item starts,
 * but those in flight finish (their effects are real and must be recorded); returns the first
 * failure, if any.
 */
export async function runBounded<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<unknown> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return failure?.error;
}

/**
 * Applies the plan to the domain: deletions, then updates, then creations, each phase with
 * bounded concurrency. Returns the set's state; when a request fails, throws a
 * `PartialApplyError` holding exactly the records as the successful requests left them.
 */
async function apply(at: ApplyContext, current: Values[], steps: Step[]) {
  const { client, domainId, zone, signal } = at;
  // Recorded records by id, in the API's spelling (wire names), updated as each request succeeds.
  const byId = new Map<number, DomainRecord>(current.map((r) => [apiId(r.id), snakeRecord(r)]));
  const records = client.domains.records;
  let done = 0;
  const run = async (step: Step) => {
    try {
      if (step.kind === "delete") {
        await records.delete(domainId, step.id, { signal }).catch((e: unknown) => {
          if (!isGone(e)) throw e;
        });
        byId.delete(step.id);
      } else if (step.kind === "update") {
        byId.set(step.id, kept(await records.update(domainId, step.id, step.body, { signal })));
      } else {
        const created = kept(await createOnce(at, step, byId));
        byId.set(created.id, created);
      }
      done++;
    } catch (error) {
      throw new Error(`records[${JSON.stringify(step.key)}]: ${explain(domainRecordSetSpec, step.kind, error).message}`, { cause: error });
    }
  };
  let failure: unknown;
  for (const kind of ["delete", "update", "create"] as const) {
    failure = await runBounded(
      steps.filter((s) => s.kind === kind),
      RECORD_SET_CONCURRENCY,
      run,
    );
    if (failure) break;
  }
  const state: RecordSetState = { id: domainId, domain: zone, records: [...byId.values()] };
  if (failure) {
    throw new PartialApplyError(`${(failure as Error).message} (${done} of ${steps.length} record changes applied and recorded)`, state, {
      cause: failure,
    });
  }
  return state;
}

const isGone = (error: unknown) => (error as { status?: number } | undefined)?.status === 404;

/** A record from state (camelCase) back in the API's spelling. */
const snakeRecord = (record: Values): DomainRecord =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [toSnake(k), v])) as unknown as DomainRecord;

/** The zone's records as outputs spell them (camelCase), for planning against them. */
const asOutputs = (records: DomainRecord[]): Values[] => records.map((r) => camelizeDeep(kept(r)) as Values);

/**
 * The type-specific rules of each declared record (the sdk's, wire names), reported on the
 * record's path (`records[2].priority`). Unknown values count as not given and failures about
 * them wait, so a set whose domain or targets come from resources of the same program is still
 * checked at the first preview. While some record holds an unknown value the list's schema was
 * skipped, so each known field is checked here with its schema too.
 */
function recordFailures(inputs: Values): Failure[] {
  const records = inputs.records;
  if (!Array.isArray(records)) return [];
  const schemaSkipped = isUnknown(records);
  const failures: Failure[] = [];
  records.forEach((record, i) => {
    if (!isRecord(record)) return;
    const at = (field: string, reason: string) => failures.push({ property: "", reason: `records[${i}].${field}: ${reason}` });
    const wire: Values = {};
    const unknown = new Set<string>();
    for (const [key, value] of Object.entries(record)) {
      if (isUnknown(value)) unknown.add(toSnake(key));
      else wire[toSnake(key)] = value;
      const field = FIELDS[key as keyof typeof FIELDS];
      if (schemaSkipped && field && value !== undefined && value !== null && !isUnknown(value)) {
        const parsed = field.schema.safeParse(value);
        if (!parsed.success) at(key, parsed.error.issues[0]!.message);
      }
    }
    if (typeof wire.type !== "string") return;
    for (const e of recordRuleErrors(wire as unknown as RecordFields)) {
      if (e.field === undefined || !unknown.has(e.field))
        at(e.field ? e.field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) : "", e.reason);
    }
  });
  return failures;
}

/** What `apply` works with; `listed` is the zone as listed before the plan (none is needed when the plan creates nothing). */
function applyContext(ctx: ProviderContext, domainId: number, zone: string, listed: Values[], signal: AbortSignal): ApplyContext {
  const before = new Set(listed.map((r) => apiId(r.id)));
  return { client: ctx.client(), domainId, zone, before, progress: (m) => ctx.progress(m), signal };
}

/** Says which existing records a set takes over (see `claim`); returns them. */
function tookOver(ctx: ProviderContext, claimed: Values[]): Values[] {
  if (claimed.length > 0) {
    const ids = claimed.map((r) => String(r.id));
    const shown = ids.length > 10 ? `${ids.slice(0, 10).join(", ")}, …` : ids.join(", ");
    ctx.progress(`taking over ${claimed.length} record(s) the zone already holds, identical to declared ones (ids ${shown})`);
  }
  return claimed;
}

export const domainRecordSetSpec = resourceSpec<RecordSetState>()({
  name: "DomainRecordSet",
  noun: "domain record set",
  description:
    "Many records of one domain as one resource: the same fields and spellings as `DomainRecord`, a per-record diff (each added, removed or changed record printed with its values), one request per changed record, optionally exclusive (the zone holds exactly these records).",
  adoptIdForm: {
    example: "12345",
    what: "the domain's id; the records of the zone identical to declared ones are taken over, and only the missing ones created",
  },
  example: [
    'new compute.DomainRecordSet("zone-records", {',
    "  domainId: zone.id,",
    "  records: [",
    '    { type: "A", name: "www", target: "203.0.113.10", ttlSec: 300 },',
    '    { type: "MX", name: "@", target: "mail.example.com.", priority: 10 },',
    "  ],",
    "});",
  ].join("\n"),
  inputs: {
    domainId: parentIdField("domainId", "domain", "replaces the set (its records move to the new domain)"),
    records: RECORDS_FIELD,
    exclusive: {
      schema: z.boolean({ error: () => "exclusive must be true or false" }),
      default: false,
      send: "never",
      description:
        "`true`: the zone holds exactly these records; any other record of the domain is deleted (and shows in the diff). `false`: only the declared records are managed.",
    },
  },
  outputs: {
    domain: { description: "The name of the domain (zone)." },
  },
  // The records in state keep their API ids; the domain id as a number, the mode as given.
  computed: {
    domainId: (record) => record.id,
    exclusive: (_record, given) => given.exclusive === true,
  },
  timeouts: { create: 30 * MINUTE, update: 30 * MINUTE, delete: 30 * MINUTE },
  endpoints: {
    read: ["domains.get", "domains.records.list"],
    write: ["domains.records.create", "domains.records.update", "domains.records.delete"],
  },
  validatesUnknowns: true,
  validate: recordFailures,
  hooks: {
    create: async ({ ctx, inputs, signal }) => {
      const client = ctx.client();
      const domainId = apiId(inputs.domainId);
      const [zone, listed] = await Promise.all([
        client.domains.get(domainId, { signal }).then((d) => d.domain),
        client.domains.records.listAll(domainId, { signal }),
      ]);
      const all = asOutputs(listed);
      // Exclusive: start from the zone as it is (records already there are kept or changed, others
      // deleted). Otherwise records identical to declared ones are taken over, never twinned.
      const current = inputs.exclusive ? all : tookOver(ctx, claim(zone, all, stateRecords(inputs), new Set()));
      return apply(applyContext(ctx, domainId, zone, all, signal), current, plan(current, inputs.records, zone));
    },
    read: async ({ ctx, id, state, signal }) => {
      const client = ctx.client();
      const domainId = apiId(state.domainId ?? id);
      // The zone's name is in state; without it (an older state) one GET. A gone domain answers 404 either way.
      const zone = typeof state.domain === "string" ? state.domain : (await client.domains.get(domainId, { signal })).domain;
      const all = await client.domains.records.listAll(domainId, { signal });
      if (state.exclusive === true) return { id: domainId, domain: zone, records: all.map(kept) };
      const recorded = new Set(stateRecords(state).flatMap((r) => (r.id === undefined ? [] : [apiId(r.id)])));
      // Records without an id are declared ones (adoption reads the program's inputs as its state):
      // the zone's identical records that no other entry holds are theirs.
      const unheld = stateRecords(state).filter((r) => r.id === undefined);
      const claimed = new Set(claim(zone, asOutputs(all), unheld, recorded).map((r) => apiId(r.id)));
      return { id: domainId, domain: zone, records: all.filter((r) => recorded.has(r.id) || claimed.has(r.id)).map(kept) };
    },
    update: async ({ ctx, olds, news, signal }) => {
      const client = ctx.client();
      const domainId = apiId(olds.domainId);
      const zone = String(olds.domain);
      // Exclusive: plan against the zone as it is now, so a record added since the last refresh goes too.
      const listed = news.exclusive ? asOutputs(await client.domains.records.listAll(domainId, { signal })) : undefined;
      let current = listed ?? stateRecords(olds);
      let steps = plan(current, news.records, zone);
      if (olds.exclusive === true && !news.exclusive) {
        // Leaving exclusive mode releases the zone's other records (state held them all): they
        // stay in the zone and leave state, rather than being deleted on the way out.
        const released = new Set(steps.flatMap((s) => (s.kind === "delete" ? [s.id] : [])));
        current = current.filter((r) => !released.has(apiId(r.id)));
        steps = steps.filter((s) => s.kind !== "delete");
      }
      const creates = steps.flatMap((s) => (s.kind === "create" ? [s.record] : []));
      if (listed || creates.length === 0) return apply(applyContext(ctx, domainId, zone, listed ?? [], signal), current, steps);
      // New records the zone already holds, identical (made by hand, or by a run cut off before it
      // saved state), are taken over rather than twinned: one listing of the zone, only when creating.
      const all = asOutputs(await client.domains.records.listAll(domainId, { signal }));
      const claimed = tookOver(ctx, claim(zone, all, creates, new Set(current.map((r) => apiId(r.id)))));
      if (claimed.length > 0) {
        current = [...current, ...claimed];
        steps = plan(current, news.records, zone);
      }
      return apply(applyContext(ctx, domainId, zone, all, signal), current, steps);
    },
    delete: async ({ ctx, state, signal }) => {
      const client = ctx.client();
      const domainId = apiId(state.domainId);
      const records = stateRecords(state);
      const failure = await runBounded(records, RECORD_SET_CONCURRENCY, (r) =>
        client.domains.records.delete(domainId, apiId(r.id), { signal }).then(
          () => undefined,
          (e: unknown) => {
            if (!isGone(e)) throw e;
          },
        ),
      );
      // The set stays in state; the next destroy deletes what is left (a record already gone is success).
      if (failure) throw explain(domainRecordSetSpec, "delete", failure);
    },
  },
});
