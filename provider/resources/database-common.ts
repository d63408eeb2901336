/**
 * What `MysqlDatabase` and `PostgresqlDatabase` share: the whole spec — inputs (from the sdk's
 * create and update schemas), outputs, timeouts and hooks — built for one engine by
 * `databaseSpec`; the engine-specific files add their replication fields.
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
 * - **The allow list, given or not.** Given, the database owns its allow list exactly; absent, the
 *   list is left alone (no diff, no drift, never sent), so `DatabaseAllowListEntry` resources can
 *   add addresses one at a time from any stack. A program that gives `allowList` and also adds an
 *   entry to the same database is refused at check (the entry's, which says which to use).
 */
import type { z } from "zod";
import { ApiError, WaitError, isNotFound } from "../../sdk/core/errors";
import {
  CURRENT_ENGINE_MAJORS,
  DATABASE_CAPABILITY,
  DATABASE_CREATE_REQUESTS,
  DATABASE_REASONS,
  SPEC_ENGINE_MAJORS,
  parseEngineId,
  DatabaseUpdatesRequest,
  type Database,
  type DatabaseEngineType,
  type DatabaseUpdateRequest,
  type EngineDatabases,
  canonicalAllowListEntry,
} from "../../sdk/resources/databases";
import type { ComputeClient } from "../../sdk/client";
import type { ProviderContext } from "../engine/context";
import { Declarations } from "../engine/declarations";
import { camelCased } from "../engine/schemas";
import { resourceSpec, type Call, type Failure, type Fields, type Hooks, type InputsOf, type Values } from "../engine/spec";
import { waitReporter } from "../engine/status";
import { camelText, canonicalJson, camelizeDeep, isRecord, type Camelized } from "../engine/values";
import { MINUTE, apiId, regionOnOffer, text, timestamps, uniqueLabel } from "./common";

// ---------------------------------------------------------------------------------------------
// The maintenance window, as a program writes it (camelCase of the API's `updates`)

/** The maintenance window input: the API's `updates` in camelCase; weekly (the default) or monthly, in UTC (api-facts P2-2). */
export type MaintenanceWindowArgs = Camelized<z.input<typeof DatabaseUpdatesRequest>>;

/** The window with the API's defaults filled in (weekly; no week of the month): what the API stores for this input. */
function canonicalWindow<W extends { [K in keyof MaintenanceWindowArgs]-?: unknown }>(window: Partial<W>) {
  const { frequency, duration, hourOfDay, dayOfWeek, weekOfMonth } = window;
  return { frequency: frequency ?? ("weekly" as const), duration, hourOfDay, dayOfWeek, weekOfMonth: weekOfMonth ?? null };
}

/** A recorded or given window in canonical form, for comparing (and sending: its keys become the wire's). */
const windowForm = (value: unknown): unknown => (isRecord(value) ? canonicalWindow(value) : value);

/** The sdk's `DatabaseUpdatesRequest` in camelCase (its rules and texts), canonical once valid. */
const MaintenanceWindow = camelCased(DatabaseUpdatesRequest).transform((window) =>
  canonicalWindow<Required<MaintenanceWindowArgs>>(window),
);

// ---------------------------------------------------------------------------------------------
// Allow lists and engine ids

/** Canonical, sorted, without duplicates: `["203.0.113.1", "192.0.2.0/24"]` equals `["192.0.2.0/24", "203.0.113.1/32"]`. */
export function canonicalAllowList(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return [...new Set(value.map((v) => (typeof v === "string" ? canonicalAllowListEntry(v) : v)))].sort();
}

/** `mysql/8.0.30` from the record; the program's `mysql/8` when the API's version is an 8.x. */
export function engineIdOutput(db: Pick<Database, "engine" | "version">, recorded: unknown): string {
  const id = `${db.engine}/${db.version}`;
  if (typeof recorded !== "string") return id;
  return normalizeEngineId(recorded, { engine: db.engine, version: db.version }) === id ? recorded : id;
}

/**
 * An engine id compared against the recorded database: `mysql/8` (any version of that major, as
 * today's API takes it) or `mysql/8.0` means the recorded `mysql/8.0.35` when the database runs a
 * version of it, so neither spelling diffs against what the API reports; against another version
 * (an engine changed behind Pulumi's back, or a program asking for another major) it stays as
 * written, and differs.
 */
export function normalizeEngineId(value: unknown, recorded: Values): unknown {
  const version = recorded.version;
  if (typeof value !== "string" || typeof version !== "string") return value;
  const { type, version: given } = parseEngineId(value);
  const same = type === recorded.engine && (version === given || version.startsWith(`${given}.`));
  return same ? `${type}/${version}` : value;
}

/** Preview's check of an engine id (its form is the sdk's): the major must be one the API offers. */
export function engineIdFailures(engine: DatabaseEngineType, value: unknown): Failure[] {
  if (typeof value !== "string") return [];
  const { type, major, majorOnly } = parseEngineId(value);
  if (type !== engine || major === "") return []; // the sdk's schema names these
  const current = CURRENT_ENGINE_MAJORS[engine];
  const known = [...new Set([...SPEC_ENGINE_MAJORS[engine], ...current])];
  if (majorOnly ? current.includes(major) : known.includes(major)) return [];
  const offered = current.map((m) => `${engine}/${m}`).join(", ");
  const reason = majorOnly
    ? `engineId must be a major version on offer (${offered}); ${engine} ${major} is not (getDatabaseEngines lists them)`
    : `engineId must be a version of a major ${engine} has had (${known.join(", ")}); there is no ${engine} ${major}`;
  return [{ property: "engineId", reason }];
}

/**
 * Preview's check of an engine id against what the API offers now, so a preview accepts only what
 * the create will: a major-only id must be listed (`GET /databases/engines`, one read per process),
 * a full version must be one the API knows (`GET /databases/engines/{id}`, once per id). Reads
 * only; runs after the static check above passed, and only for an engine id new to the object.
 */
export async function engineOnOffer(call: Call & { inputs: Values; olds: Values }): Promise<Failure[]> {
  const { ctx, inputs, olds, signal } = call;
  const id = inputs.engineId;
  // A database already made keeps its engine, even one no longer offered to new databases.
  if (typeof id !== "string" || olds.engineId === id) return [];
  const client = ctx.client();
  const { type, majorOnly } = parseEngineId(id);
  const listed = await ctx.memo("databases.engines", () => client.databases.engines.listAll({ signal }));
  if (listed.some((e) => e.id === id)) return [];
  const known = majorOnly
    ? false
    : await ctx.memo(`databases.engines/${id}`, () =>
        client.databases.engines.get(id, { signal }).then(
          () => true,
          (error: unknown) => {
            if (isNotFound(error)) return false;
            throw error;
          },
        ),
      );
  if (known) return [];
  const offered = listed
    .filter((e) => e.engine === type)
    .map((e) => e.id)
    .join(", ");
  return [
    {
      property: "engineId",
      reason: `engineId ${id} is not on offer (now: ${offered}); getDatabaseEngines lists the versions a new database can use`,
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// Inputs and outputs shared by both engines

/** Input fields both engines have; each engine adds its replication fields. */
function commonInputs(engine: DatabaseEngineType) {
  const fields = DATABASE_CREATE_REQUESTS[engine].shape;
  const [major, full] = engine === "mysql" ? ["mysql/8", "mysql/8.0.30"] : ["postgresql/16", "postgresql/14.6"];
  return {
    label: {
      schema: fields.label,
      required: true,
      description: "3–32 characters, unique among the account's databases. Changes in place.",
    },
    region: {
      schema: fields.region,
      required: true,
      replaceOnChange: true,
      description: "Region id (one offering Managed Databases). Changing it replaces the database.",
    },
    type: {
      schema: fields.type,
      required: true,
      description: "Instance type of the nodes, such as `g6-nanode-1`. A change resizes in place, to a type with more disk only.",
    },
    engineId: {
      wire: "engine",
      schema: fields.engine,
      required: true,
      replaceOnChange: true,
      normalize: normalizeEngineId,
      description: `Engine and version: a major, \`${major}\` (the API provisions its newest version; \`getDatabaseEngines\` lists them), or a full version, \`${full}\`. Changing it replaces the database: engines are never upgraded in place.`,
    },
    clusterSize: {
      schema: fields.cluster_size.unwrap(),
      default: 1,
      replaceOnChange: true,
      description: "1, or 3 for a high-availability cluster (a primary and two replicas). Changing it replaces the database.",
    },
    encrypted: {
      schema: fields.encrypted.unwrap(),
      default: false,
      replaceOnChange: true,
      description: "Encrypt the disks. Changing it replaces the database.",
    },
    sslConnection: {
      schema: fields.ssl_connection.unwrap(),
      replaceOnChange: true,
      description: "Require SSL to connect. When absent the API decides (it recorded `false`). Changing it replaces the database.",
    },
    // No default: absent, the list is not this resource's (DatabaseAllowListEntry adds to it).
    allowList: {
      schema: fields.allow_list.unwrap(),
      set: true,
      normalize: canonicalAllowList,
      keepSpelling: true,
      description:
        "Addresses and CIDR ranges allowed to connect (a set; `203.0.113.1` equals `203.0.113.1/32`); empty blocks every connection, `0.0.0.0/0` allows all. Changes in place. When given, the database owns its allow list exactly; when absent, the list is left alone (use `DatabaseAllowListEntry`). A new database without it allows no connections.",
    },
    updates: {
      schema: MaintenanceWindow,
      // The API takes a window only from an active database: `settle` applies it after the create.
      send: "update",
      normalize: windowForm,
      toWire: windowForm,
      description:
        "Maintenance window `{frequency, duration, hourOfDay, dayOfWeek, weekOfMonth}` (UTC). Applied once the database is active; changes in place. When absent the platform picks one.",
    },
  } as const satisfies Fields;
}

type CommonInputs = InputsOf<ReturnType<typeof commonInputs>>;

const DATABASE_OUTPUTS = {
  status: { description: "`active` once usable; also provisioning, updating, resizing, backing_up, restoring, failed, degraded, …" },
  hosts: {
    description: "`{primary, secondary}` host names, assigned when provisioning completes.",
    // `settle` waits for `active`, when the platform has assigned them.
    known: ["primary"] as const,
    nullWhen:
      "`secondary` (the private network's host; today's platform names it `standby`, for high-availability clusters) may be null or absent.",
  },
  port: { description: "Access port (3306 for MySQL, 5432 for PostgreSQL)." },
  version: { description: "Engine version, such as `8.0.30`." },
  engine: { description: "Engine type: `mysql` or `postgresql`." },
  // Read by `settle` once active (`withSecrets`); a read that fails is an unfinished create.
  rootUsername: { description: "The root user.", known: true as const },
  rootPassword: { secret: true, description: "The root password (secret: encrypted in state).", known: true as const },
  caCert: {
    secret: true,
    description: "The CA certificate to verify the server with, base64-encoded PEM (secret in state).",
    nullWhen:
      "Absent when the API has none to give (the 2023 recordings answer `ca_certificate: null`; today's API and the emulator give one).",
  },
  ...timestamps("database"),
};

/** Cross-field rule of the create body (the sdk schema's own refinement): one node cannot replicate. */
function validateReplication(inputs: Values): Failure[] {
  const single = (inputs.clusterSize ?? 1) === 1;
  const type = inputs.replicationType;
  return single && type !== undefined && type !== "none"
    ? [{ property: "replicationType", reason: camelText(DATABASE_REASONS.replicationSingleNode) }]
    : [];
}

/** `replaceBroken`: a database whose status is `failed` can only be replaced. */
const replaceFailed = (olds: Values): string[] => (olds.status === "failed" ? ["status"] : []);

// ---------------------------------------------------------------------------------------------
// Hooks

/** Statuses in which the API accepts a delete (spec "Status required by operation"). */
const DELETABLE = ["active", "failed", "degraded"];
/** Statuses a wait for `active` gives up on at once. */
const BROKEN = ["failed", "degraded"];
/** Long enough for anything; the operation's own deadline (its `timeouts`) aborts the wait first. */
const WAIT_CEILING_MS = 7 * 24 * 3600 * 1000;
/** How long a new database takes to provision, as the API documents it (the emulator's clock may run faster). */
const PROVISIONING_USUALLY = "15–30 min at real speed";
/** The start of the API's refusal of an update to a database that is not active. */
const NOT_ACTIVE_PREFIX = DATABASE_REASONS.status("update", "").split(" that is")[0]!;

/** Whether `error` is the API's refusal of an update because the database is not `active` (a job of its own, or another writer's update, is running). */
export const refusedNotActive = (error: unknown): boolean =>
  error instanceof ApiError && error.status === 400 && error.hasReason(NOT_ACTIVE_PREFIX);

/** What messages call a database of each engine: `MySQL database 28000`. */
export const DATABASE_NOUNS = { mysql: "MySQL database", postgresql: "PostgreSQL database" } as const satisfies Record<
  DatabaseEngineType,
  string
>;

/** One engine's databases as the waits see them: what messages call one, and the engine's part of the client. */
export interface DatabaseAccess {
  noun: string;
  api(ctx: ProviderContext): Pick<EngineDatabases<z.ZodType>, "waitForStatus">;
}

/**
 * Polls database `id` until one of `until`, saying on the row what it waits for: on every change,
 * every half minute, and when done. A `failed` or `degraded` database (unless awaited) ends the
 * wait with what to do next.
 */
export async function waitUntil(
  ctx: ProviderContext,
  { noun, api }: DatabaseAccess,
  id: number,
  until: readonly string[],
  signal: AbortSignal,
  options: { awaited: string; usual?: string; failOn?: readonly string[] },
): Promise<Database> {
  const failOn = options.failOn ?? BROKEN;
  let report: ((status: string, elapsedMs: number) => void) | undefined;
  try {
    return await api(ctx).waitForStatus(id, {
      until,
      failOn,
      timeoutMs: WAIT_CEILING_MS,
      signal,
      sleep: ctx.time.sleep,
      now: ctx.time.now,
      progress: (db, elapsed) => {
        if (!until.includes(db.status) && failOn.includes(db.status)) return; // the error tells it
        report ??= waitReporter(
          { what: `${noun} ${id} (${db.label})`, until: options.awaited, usual: options.usual },
          (status) => until.includes(status),
          (text, about) => ctx.status(text, about),
        );
        report(db.status, elapsed);
      },
    });
  } catch (error) {
    if (error instanceof WaitError && error.kind === "failed")
      throw new Error(brokenMessage(noun, error.last as Database), { cause: error });
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// The allow list, owned by the database or shared entry by entry

/** What a program declared about a database's allow list: its database resource owns it (its `allowList` is given). */
export interface AllowListDeclaration {
  kind: "list";
}

/** The program's declarations about allow lists, by `databaseKey` (`engine/declarations.ts`). */
export const allowListDeclarations = (ctx: ProviderContext) =>
  ctx.shared("database allow lists declared", () => new Declarations<AllowListDeclaration>());

/** A database's key in the declarations: `mysql 28000` (ids are per engine). */
export const databaseKey = (engine: string, id: number): string => `${engine} ${id}`;

/** What the provider records of a database: the API's record, plus the root credentials and CA certificate once readable. */
type DatabaseWithSecrets = Database & { root_username?: string; root_password?: string; ca_cert?: string };

/** One engine's database resource: its names, its replication fields, and its part of the sdk client. */
export interface DatabaseKind<C extends z.ZodType, R extends Fields> {
  engine: DatabaseEngineType;
  /** The resource's type name, `MysqlDatabase`. */
  name: string;
  /** "MySQL database", for messages. */
  noun: string;
  description: string;
  example: string;
  /** The engine's inputs besides the common ones. */
  replication: R;
  api(client: ComputeClient): EngineDatabases<C>;
}

/** A `failed` or `degraded` database, explained with what happens next. */
export function brokenMessage(noun: string, db: Pick<Database, "id" | "label" | "status">): string {
  const what = `${noun} ${db.id} (${db.label}) is ${db.status}`;
  if (db.status === "failed") {
    return (
      `${what}: the platform could not bring it up, and a failed database cannot be repaired in place. ` +
      "It stays recorded in the stack; the next `pulumi up` replaces it (or `pulumi destroy` deletes it)."
    );
  }
  return (
    `${what}: a node of the cluster is unhealthy. It stays recorded in the stack; ` +
    "run `pulumi up` again once the platform has repaired it (or `pulumi destroy` to delete it)."
  );
}

/** The hooks of a database resource of one engine. */
function databaseHooks<C extends z.ZodType>(
  noun: string,
  api: (ctx: ProviderContext) => EngineDatabases<C>,
): Hooks<CommonInputs, DatabaseWithSecrets, z.input<C>, DatabaseUpdateRequest> {
  const access: DatabaseAccess = { noun, api };

  /**
   * The record plus the root credentials and CA certificate (readable only while `active`); when
   * they cannot be read now, the recorded ones are kept.
   */
  async function withSecrets(ctx: ProviderContext, db: Database, recorded: Values, signal: AbortSignal): Promise<DatabaseWithSecrets> {
    const fallback = {
      root_username: text(recorded.rootUsername),
      root_password: text(recorded.rootPassword),
      ca_cert: text(recorded.caCert),
    };
    if (db.status !== "active") return { ...db, ...fallback };
    try {
      const [credentials, ssl] = await Promise.all([api(ctx).credentials(db.id, { signal }), api(ctx).ssl(db.id, { signal })]);
      return { ...db, root_username: credentials.username, root_password: credentials.password, ca_cert: ssl.ca_certificate ?? undefined };
    } catch {
      return { ...db, ...fallback }; // the status moved on between the reads; the next read catches up
    }
  }

  /**
   * PUTs a change to an active database. A PUT whose answer was lost (a reset after the API
   * acted) has already started the change, and the sdk's repeat is refused because the database
   * is no longer active; so on that refusal the database is waited out and the change sent once
   * more (a PUT of the same values is harmless on an active database; a resize already done is
   * left out, as asking for the same plan again is refused).
   */
  async function updateActive(ctx: ProviderContext, id: number, body: DatabaseUpdateRequest, signal: AbortSignal): Promise<Database> {
    try {
      return await api(ctx).update(id, body, { signal });
    } catch (error) {
      if (!refusedNotActive(error)) throw error;
      const db = await waitUntil(ctx, access, id, ["active"], signal, { awaited: "active" });
      const { type, ...rest } = body;
      const again = type === undefined || type === db.type ? rest : body;
      return Object.keys(again).length === 0 ? db : api(ctx).update(id, again, { signal });
    }
  }

  return {
    create: ({ ctx, body, signal }) => api(ctx).create(body, { signal }),

    read: async ({ ctx, id, state, signal }) => withSecrets(ctx, await api(ctx).get(apiId(id), { signal }), state, signal),

    update: async ({ ctx, id, body, olds, signal }) => {
      const dbId = apiId(id);
      // The API takes updates only from an active database (a nightly job may be running).
      await waitUntil(ctx, access, dbId, ["active"], signal, { awaited: "active" });
      if (body.type !== undefined) ctx.status(`resizing from ${String(olds.type)} to ${body.type}`, `${noun} ${id}`);
      if (Object.keys(body).length === 0) return api(ctx).get(dbId, { signal });
      return updateActive(ctx, dbId, body, signal);
    },

    delete: async ({ ctx, id, signal }) => {
      const dbId = apiId(id);
      const db = await waitUntil(ctx, access, dbId, DELETABLE, signal, { awaited: "a status that allows a delete", failOn: [] });
      if (db.status !== "active") ctx.status(`${db.status}; deleting it`, `${noun} ${id} (${db.label})`);
      await api(ctx).delete(dbId, { signal });
    },

    settle: async ({ ctx, record, inputs, bodyOf, signal }) => {
      const id = record.id;
      let db = await waitUntil(ctx, access, id, ["active"], signal, { awaited: "active", usual: PROVISIONING_USUALLY });
      const windowDiffers = canonicalJson(windowForm(inputs.updates)) !== canonicalJson(windowForm(camelizeDeep(db.updates)));
      if (inputs.updates !== undefined && windowDiffers) {
        ctx.status("applying the maintenance window", `${noun} ${id} (${db.label})`);
        await updateActive(ctx, id, bodyOf(["updates"]), signal);
        db = await waitUntil(ctx, access, id, ["active"], signal, { awaited: "active" });
      }
      return withSecrets(ctx, db, {}, signal);
    },
  };
}

/** The spec of one engine's database resource: the common fields and life, plus the engine's replication fields. */
export function databaseSpec<C extends z.ZodType, R extends Fields>(kind: DatabaseKind<C, R>) {
  return resourceSpec<DatabaseWithSecrets, z.input<C>, DatabaseUpdateRequest>()({
    name: kind.name,
    noun: kind.noun,
    description: kind.description,
    example: kind.example,
    inputs: { ...commonInputs(kind.engine), ...kind.replication },
    outputs: DATABASE_OUTPUTS,
    computed: { engineId: (db: DatabaseWithSecrets, given: Values) => engineIdOutput(db, given.engineId) },
    timeouts: { create: 45 * MINUTE, update: 45 * MINUTE, delete: 30 * MINUTE },
    endpoints: {
      read: ["regions.list", "databases.engines.list", "databases.engines.get", `databases.${kind.engine}.list`].concat(
        ["get", "credentials", "ssl"].map((method) => `databases.${kind.engine}.${method}`),
      ),
      write: ["create", "update", "delete"].map((method) => `databases.${kind.engine}.${method}`),
    },
    uniqueInputs: ["label"],
    // Labels are unique among the account's databases (one of the other engine is refused by the API).
    naturalKey: uniqueLabel((ctx, filter, signal) => kind.api(ctx.client()).listAll({ filter, signal })),
    validate: (inputs) => [...engineIdFailures(kind.engine, inputs.engineId), ...validateReplication(inputs)],
    checkShared: async (call) => [...(await regionOnOffer(DATABASE_CAPABILITY)(call)), ...(await engineOnOffer(call))],
    // Tells the program's DatabaseAllowListEntry resources when this database's allow list is owned here.
    declare: ({ ctx, id, inputs }) => {
      if (id !== undefined && inputs.allowList !== undefined && inputs.allowList !== null)
        allowListDeclarations(ctx).declare(databaseKey(kind.engine, apiId(id)), "list", { kind: "list" });
    },
    replaceBroken: replaceFailed,
    hooks: databaseHooks(kind.noun, (ctx) => kind.api(ctx.client())),
  });
}
