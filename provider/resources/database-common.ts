/**
 * What `MysqlDatabase` and `PostgresqlDatabase` share: their inputs (from the sdk's create and
 * update schemas), outputs, timeouts and hooks. The engine-specific files add their replication
 * fields and the class.
 *
 * - **Waiting.** Create waits in `settle` until the database is `active` (15–30 minutes on the real
 *   API), reporting progress, then applies the maintenance window (an update the API only accepts
 *   once active) and waits again; updates wait until `active` before and after; delete waits until
 *   the status allows deletion (`active`, `failed`, `degraded`).
 * - **Failure.** A database that ends `failed` or `degraded` is reported with what to do next; it
 *   stays recorded in state (the engine's init error), and a `failed` one is replaced by the next
 *   `up` (`replaceBroken`): the platform cannot repair it.
 * - **Secrets.** The root password and the CA certificate are read once active and recorded as
 *   secret outputs (encrypted in state).
 * - **Spellings.** The allow list is a set compared canonically (a bare address equals its /32 or
 *   /128) and keeps the program's spelling in state; the engine id keeps the program's spelling
 *   when the API reports the same version (`mysql/8` for `8.0.35`).
 */
import { z } from "zod";
import { WaitError } from "../../sdk/core/errors";
import {
  DATABASE_CREATE_REQUESTS,
  DATABASE_REASONS,
  DatabaseUpdatesRequest,
  type Database,
  type DatabaseEngineType,
  type DatabaseUpdateRequest,
  type EngineDatabases,
  canonicalAllowListEntry,
} from "../../sdk/resources/databases";
import type { ProviderContext } from "../engine/context";
import type { ApiObject, Failure, Hooks, Inputs, OutputField, Outputs } from "../engine/spec";
import { canonicalJson, formatDuration, toCamel, toSnake } from "../engine/values";
import { MINUTE, apiId } from "./common";
import * as pulumi from "@pulumi/pulumi";
import { type Camelized, TYPE_MODULE, dynamicProps, resourceOptions } from "../engine/resource";
import type { ResourceSpec } from "../engine/spec";
import { providerFor } from "../shim";

// ---------------------------------------------------------------------------------------------
// The maintenance window, as a program writes it (camelCase of the API's `updates`)

/** The maintenance window input: weekly (default) or monthly, in UTC (api-facts P2-2). */
export interface MaintenanceWindowArgs {
  /** `weekly` (default) or `monthly`. */
  frequency?: "weekly" | "monthly";
  /** Hours, 1–3. */
  duration: number;
  /** Start hour, 0–23 UTC. */
  hourOfDay: number;
  /** 1 (Monday) to 7 (Sunday). */
  dayOfWeek: number;
  /** 1–4: required when monthly, absent (or null) when weekly. */
  weekOfMonth?: number | null;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `hour_of_day must be …` → `hourOfDay must be …`: messages name the program's fields. */
export const camelText = (text: string): string => text.replace(/\b[a-z]+(?:_[a-z0-9]+)+\b/g, toCamel);

function renameKeys(value: Record<string, unknown>, rename: (key: string) => string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [rename(k), v]));
}

/** The sdk's `DatabaseUpdatesRequest`, applied to the camelCase input (so rules and texts are the API's). */
export const MaintenanceWindowInput = z.unknown().superRefine((value, ctx) => {
  const parsed = DatabaseUpdatesRequest.safeParse(isRecord(value) ? renameKeys(value, toSnake) : value);
  if (parsed.success) return;
  for (const issue of parsed.error.issues) {
    ctx.addIssue({ code: "custom", message: camelText(issue.message), path: issue.path.map((p) => (typeof p === "string" ? toCamel(p) : p)) });
  }
}) as unknown as z.ZodType<MaintenanceWindowArgs>;

/** The five managed keys, defaults filled in: what the API stores for this input. */
export function canonicalWindow(value: unknown): unknown {
  if (!isRecord(value)) return value;
  return {
    frequency: value.frequency ?? "weekly",
    duration: value.duration,
    hourOfDay: value.hourOfDay,
    dayOfWeek: value.dayOfWeek,
    weekOfMonth: value.weekOfMonth ?? null,
  };
}

/** The input as the API's `updates` body. */
export function wireWindow(value: unknown): NonNullable<DatabaseUpdateRequest["updates"]> {
  return renameKeys(canonicalWindow(value) as Record<string, unknown>, toSnake) as NonNullable<DatabaseUpdateRequest["updates"]>;
}

// ---------------------------------------------------------------------------------------------
// Allow lists and engine ids

/** Canonical, sorted, without duplicates: `["203.0.113.1", "192.0.2.0/24"]` equals `["192.0.2.0/24", "203.0.113.1/32"]`. */
export function canonicalAllowList(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return [...new Set(value.map((v) => (typeof v === "string" ? canonicalAllowListEntry(v) : v)))].sort();
}

/** The program's (or state's) spelling when it means the same list, else the API's. */
export function allowListOutput(api: unknown, recorded: unknown): unknown {
  if (Array.isArray(recorded) && canonicalJson(canonicalAllowList(api)) === canonicalJson(canonicalAllowList(recorded))) return recorded;
  return api;
}

/** `mysql/8.0.30` from the record; the program's `mysql/8` when the API's version is an 8.x. */
export function engineIdOutput(object: ApiObject, recorded: unknown): string {
  const id = `${String(object.engine)}/${String(object.version)}`;
  if (typeof recorded !== "string") return id;
  const [type, version = ""] = recorded.split("/");
  if (type === object.engine && (version === object.version || String(object.version).startsWith(`${version}.`))) return recorded;
  return id;
}

// ---------------------------------------------------------------------------------------------
// Inputs and outputs shared by both engines

/** Input fields both engines have; each engine adds its replication fields. */
export function commonInputs(engine: DatabaseEngineType) {
  const fields = DATABASE_CREATE_REQUESTS[engine].shape;
  const example = engine === "mysql" ? "mysql/8.0.30" : "postgresql/14.6";
  return {
    label: { schema: fields.label, required: true as const, description: "3–32 characters, unique among the account's databases. Changes in place." },
    region: { schema: fields.region, required: true as const, replaceOnChange: true, description: "Region id (one offering Managed Databases). Changing it replaces the database." },
    type: { schema: fields.type, required: true as const, description: "Instance type of the nodes, such as `g6-nanode-1`. A change resizes in place, to a type with more disk only." },
    engineId: {
      wire: "engine",
      schema: fields.engine,
      required: true as const,
      replaceOnChange: true,
      description: `Engine and version, \`${example}\` (see \`getDatabaseEngines\`). Changing it replaces the database: engines are never upgraded in place.`,
    },
    clusterSize: { schema: fields.cluster_size.unwrap(), default: 1, replaceOnChange: true, description: "1, or 3 for a high-availability cluster (a primary and two replicas). Changing it replaces the database." },
    encrypted: { schema: fields.encrypted.unwrap(), default: false, replaceOnChange: true, description: "Encrypt the disks. Changing it replaces the database." },
    sslConnection: {
      schema: fields.ssl_connection.unwrap(),
      replaceOnChange: true,
      description: "Require SSL to connect. When absent the API decides (it recorded `false`). Changing it replaces the database.",
    },
    allowList: {
      schema: fields.allow_list.unwrap(),
      set: true,
      default: [],
      normalize: canonicalAllowList,
      description: "Addresses and CIDR ranges allowed to connect (a set; `203.0.113.1` equals `203.0.113.1/32`); empty blocks every connection, `0.0.0.0/0` allows all. Changes in place.",
    },
    updates: {
      schema: MaintenanceWindowInput,
      normalize: canonicalWindow,
      description: "Maintenance window `{frequency, duration, hourOfDay, dayOfWeek, weekOfMonth}` (UTC). Applied once the database is active; changes in place. When absent the platform picks one.",
    },
  };
}

export const DATABASE_OUTPUTS = {
  status: { description: "`active` once usable; also provisioning, updating, resizing, backing_up, restoring, failed, degraded, …" },
  hosts: { description: "`{primary, secondary}` host names, assigned when provisioning completes." },
  port: { description: "Access port (3306 for MySQL, 5432 for PostgreSQL)." },
  version: { description: "Engine version, such as `8.0.30`." },
  engine: { description: "Engine type: `mysql` or `postgresql`." },
  rootUsername: { wire: "root_username", description: "The root user." },
  rootPassword: { wire: "root_password", secret: true, description: "The root password (secret: encrypted in state)." },
  caCert: { wire: "ca_cert", secret: true, description: "The CA certificate to verify the server with, base64-encoded PEM (secret in state)." },
  created: { description: "When the database was created (UTC)." },
  updated: { description: "When the database was last updated (UTC)." },
} satisfies Record<string, OutputField>;

export const DATABASE_TIMEOUTS = { create: 45 * MINUTE, update: 45 * MINUTE, delete: 30 * MINUTE };

/** Cross-field rule of the create body (the sdk schema's own refinement): one node cannot replicate. */
export function validateReplication(inputs: Inputs): Failure[] {
  const single = (inputs.clusterSize ?? 1) === 1;
  const type = inputs.replicationType;
  return single && type !== undefined && type !== "none" ? [{ property: "replicationType", reason: camelText(DATABASE_REASONS.replicationSingleNode) }] : [];
}

// ---------------------------------------------------------------------------------------------
// Hooks

/** Statuses in which the API accepts a delete (spec "Status required by operation"). */
const DELETABLE = ["active", "failed", "degraded"];
/** Statuses a wait for `active` gives up on at once. */
const BROKEN = ["failed", "degraded"];
/** Long enough for anything; the operation's own deadline (its `timeouts`) aborts the wait first. */
const WAIT_CEILING_MS = 7 * 24 * 3600 * 1000;

type AnyEngineDatabases = EngineDatabases<z.ZodType>;

/** Everything the hooks need to know about their engine. */
export interface DatabaseKind {
  engine: DatabaseEngineType;
  /** "MySQL database", for messages. */
  noun: string;
  /** The create body's engine-specific fields, from the inputs. */
  extraCreateFields(inputs: Inputs): Record<string, unknown>;
}

function apiOf(ctx: ProviderContext, engine: DatabaseEngineType): AnyEngineDatabases {
  return ctx.client().databases[engine] as unknown as AnyEngineDatabases;
}

/** A `failed` or `degraded` database, explained with what happens next. */
export function brokenMessage(noun: string, db: Pick<Database, "id" | "label" | "status">): string {
  const what = `${noun} ${db.id} (${db.label}) is ${db.status}`;
  if (db.status === "failed") {
    return `${what}: the platform could not bring it up, and a failed database cannot be repaired in place. ` +
      "It stays recorded in the stack; the next `pulumi up` replaces it (or `pulumi destroy` deletes it).";
  }
  return `${what}: a node of the cluster is unhealthy. It stays recorded in the stack; ` +
    "run `pulumi up` again once the platform has repaired it (or `pulumi destroy` to delete it).";
}

/** Polls until one of `until`, printing the status when it changes and every half minute. */
async function waitUntil(
  ctx: ProviderContext,
  kind: DatabaseKind,
  id: number,
  until: readonly string[],
  signal: AbortSignal,
  options: { purpose: string; failOn?: readonly string[] },
): Promise<Database> {
  let lastStatus: string | undefined;
  let lastReport = -Infinity;
  try {
    return await apiOf(ctx, kind.engine).waitForStatus(id, {
      until,
      failOn: options.failOn ?? BROKEN,
      timeoutMs: WAIT_CEILING_MS,
      signal,
      progress: (db, elapsed) => {
        if (until.includes(db.status) && lastStatus === undefined) return; // already there: nothing to report
        if (!until.includes(db.status) && (options.failOn ?? BROKEN).includes(db.status)) return; // the error tells it
        if (db.status === lastStatus && elapsed - lastReport < 30_000) return;
        lastStatus = db.status;
        lastReport = elapsed;
        ctx.progress(`${kind.noun} ${id} (${db.label}): ${db.status}, waiting ${options.purpose} (${formatDuration(elapsed)} so far)`);
      },
    });
  } catch (error) {
    if (error instanceof WaitError && error.kind === "failed") throw new Error(brokenMessage(kind.noun, error.last as Database), { cause: error });
    throw error;
  }
}

/**
 * The record plus the root credentials and CA certificate (readable only while `active`); when
 * they cannot be read now, the recorded ones are kept.
 */
async function withSecrets(ctx: ProviderContext, kind: DatabaseKind, db: Database, recorded: Outputs, signal: AbortSignal): Promise<ApiObject> {
  const fallback = { root_username: recorded.rootUsername, root_password: recorded.rootPassword, ca_cert: recorded.caCert };
  if (db.status !== "active") return { ...db, ...fallback };
  const api = apiOf(ctx, kind.engine);
  try {
    const [credentials, ssl] = await Promise.all([api.credentials(db.id, { signal }), api.ssl(db.id, { signal })]);
    return { ...db, root_username: credentials.username, root_password: credentials.password, ca_cert: ssl.ca_certificate };
  } catch {
    return { ...db, ...fallback }; // the status moved on between the reads; the next read catches up
  }
}

function createBody(kind: DatabaseKind, inputs: Inputs): Record<string, unknown> {
  const body: Record<string, unknown> = {
    label: inputs.label,
    region: inputs.region,
    type: inputs.type,
    engine: inputs.engineId,
    cluster_size: inputs.clusterSize,
    encrypted: inputs.encrypted,
    ssl_connection: inputs.sslConnection,
    allow_list: inputs.allowList,
    ...kind.extraCreateFields(inputs),
  };
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

/** Input keys the update body carries, and their wire form. */
const UPDATABLE: Record<string, (value: unknown) => [string, unknown]> = {
  label: (v) => ["label", v],
  type: (v) => ["type", v],
  allowList: (v) => ["allow_list", v ?? []],
  updates: (v) => ["updates", v === undefined ? undefined : wireWindow(v)],
};

/** The hooks of a database resource of one engine. */
export function databaseHooks(kind: DatabaseKind): Hooks {
  const api = (ctx: ProviderContext) => apiOf(ctx, kind.engine);
  return {
    create: (ctx, inputs, signal) => api(ctx).create(createBody(kind, inputs), { signal }),

    read: async (ctx, id, state, signal) => withSecrets(ctx, kind, await api(ctx).get(apiId(id), { signal }), state, signal),

    update: async (ctx, id, olds, news, changed, signal) => {
      const dbId = apiId(id);
      // The API takes updates only from an active database (a nightly job may be running).
      await waitUntil(ctx, kind, dbId, ["active"], signal, { purpose: "to accept the update" });
      const body: Record<string, unknown> = {};
      for (const key of changed) {
        const wire = UPDATABLE[key];
        if (wire) {
          const [name, value] = wire(news[key] ?? (key === "allowList" ? [] : undefined));
          if (value !== undefined) body[name] = value;
        }
      }
      if (body.type !== undefined) ctx.progress(`${kind.noun} ${id}: resizing from ${String(olds.type)} to ${String(body.type)}`);
      if (Object.keys(body).length === 0) return api(ctx).get(dbId, { signal });
      return api(ctx).update(dbId, body as DatabaseUpdateRequest, { signal });
    },

    delete: async (ctx, id, _state, signal) => {
      const dbId = apiId(id);
      const db = await waitUntil(ctx, kind, dbId, DELETABLE, signal, { purpose: "until it can be deleted", failOn: [] });
      if (db.status !== "active") ctx.progress(`${kind.noun} ${id} (${db.label}) is ${db.status}; deleting it`);
      await api(ctx).delete(dbId, { signal });
    },

    // Labels are unique per account: a database created by an ambiguous request is found by it.
    find: async (ctx, inputs, signal) => {
      const matches = await api(ctx).listAll({ filter: { label: inputs.label as string }, signal });
      return matches.find((d) => d.label === inputs.label && d.region === inputs.region);
    },

    settle: async (ctx, object, inputs, signal) => {
      const id = Number(object.id);
      let db = await waitUntil(ctx, kind, id, ["active"], signal, { purpose: "for active" });
      if (inputs.updates !== undefined && canonicalJson(canonicalWindow(inputs.updates)) !== canonicalJson(canonicalWindow(camelWindow(db.updates)))) {
        ctx.progress(`${kind.noun} ${id} (${db.label}): applying the maintenance window`);
        await api(ctx).update(id, { updates: wireWindow(inputs.updates) }, { signal });
        db = await waitUntil(ctx, kind, id, ["active"], signal, { purpose: "for active" });
      }
      return withSecrets(ctx, kind, db, {}, signal);
    },

    extraOutputs: (object, inputs) => ({
      engineId: engineIdOutput(object, inputs.engineId),
      allowList: allowListOutput(object.allow_list, inputs.allowList),
    }),
  };
}

/** The API's `updates` record in the input's camelCase. */
function camelWindow(updates: Database["updates"]): Record<string, unknown> {
  return renameKeys(updates, toCamel);
}

/** `replaceBroken`: a database whose status is `failed` can only be replaced. */
export function replaceFailed(olds: Outputs): string[] {
  return olds.status === "failed" ? ["status"] : [];
}

/**
 * What a MySQL and a PostgreSQL database resource have in common: the outputs. Each engine's
 * class adds its own (PostgreSQL's `replicationCommitType`).
 */
export abstract class DatabaseResource extends pulumi.dynamic.Resource {
  /** The database's label. */
  declare readonly label: pulumi.Output<string>;
  /** Region id. */
  declare readonly region: pulumi.Output<string>;
  /** Instance type of the nodes. */
  declare readonly type: pulumi.Output<string>;
  /** `engine/version`, such as `mysql/8.0.30`. */
  declare readonly engineId: pulumi.Output<string>;
  /** 1 or 3 nodes. */
  declare readonly clusterSize: pulumi.Output<number>;
  /** Whether the disks are encrypted. */
  declare readonly encrypted: pulumi.Output<boolean>;
  /** Whether clients must connect with SSL. */
  declare readonly sslConnection: pulumi.Output<boolean>;
  /** Addresses and ranges allowed to connect. */
  declare readonly allowList: pulumi.Output<string[]>;
  /** Replication between the nodes of a cluster. */
  declare readonly replicationType: pulumi.Output<string>;
  /** The maintenance window. */
  declare readonly updates: pulumi.Output<Required<MaintenanceWindowArgs>>;
  /** `active` once usable. */
  declare readonly status: pulumi.Output<string>;
  /** Host names (null until provisioned). */
  declare readonly hosts: pulumi.Output<Camelized<Database["hosts"]>>;
  /** The port clients connect to. */
  declare readonly port: pulumi.Output<number>;
  /** Engine version. */
  declare readonly version: pulumi.Output<string>;
  /** Engine type. */
  declare readonly engine: pulumi.Output<string>;
  /** The root user's name. */
  declare readonly rootUsername: pulumi.Output<string>;
  /** The root password; secret, encrypted in state. */
  declare readonly rootPassword: pulumi.Output<string>;
  /** Base64 PEM CA certificate; secret, encrypted in state. */
  declare readonly caCert: pulumi.Output<string>;
  /** When the database was created (UTC). */
  declare readonly created: pulumi.Output<string>;
  /** When the database was last updated (UTC). */
  declare readonly updated: pulumi.Output<string>;

  protected constructor(spec: ResourceSpec, name: string, args: object, opts?: pulumi.CustomResourceOptions) {
    super(providerFor(spec.name), name, dynamicProps(spec, args), resourceOptions(spec, opts), TYPE_MODULE, spec.name);
  }
}
