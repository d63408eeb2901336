/**
 * `compute:DatabaseAllowListEntry`: one address of a managed database's allow list, which other
 * stacks or people may also change (the database is usually another stack's). The API changes the
 * list only by replacing it whole (the database's `PUT`), so create and delete are
 * read-modify-write of the whole list through the engine's `SharedWrites`
 * (`engine/shared-writes.ts`): serialized and batched per database in this process, and confirmed
 * by reads until the address holds; every address this resource does not own goes back exactly as
 * read. The database record has no version, so only the confirming reads tell another writer.
 *
 * The API takes a `PUT` only from an `active` database and is `updating` for about a minute after
 * each, so every read of the list waits for `active` first (said on the row): a write follows a
 * read that a write can follow, a refusal because someone else's write got in between is read and
 * written again, and a create is done once its own write is applied.
 *
 * An address is compared canonically (`203.0.113.1` is `203.0.113.1/32`). Create adds it when
 * absent and adopts it when present (nothing twice); delete removes exactly it; a read that no
 * longer finds it reports the entry gone, so a refresh names an address removed by hand and the
 * next `up` adds it again. Check refuses a database whose resource in this program gives
 * `allowList` (it owns the list, and would remove the address on its next update), and a new entry
 * whose address another resource of this stack holds (a rename: it names the `aliases`).
 */
import { z } from "zod";
import { isNotFound } from "../../sdk/core/errors";
import {
  DATABASE_ENGINES,
  DatabaseAllowListEntry,
  canonicalAllowListEntry,
  type Database,
  type DatabaseEngineType,
} from "../../sdk/resources/databases";
import type { ProviderContext } from "../engine/context";
import { sharedWritesOf, type SharedChange, type SharedDocument } from "../engine/shared-writes";
import { resourceSpec, type Failure, type Values } from "../engine/spec";
import { isUnknown } from "../engine/values";
import { MINUTE, apiId, normalizeId, parentAtCheck, parentIdField, sharedEntryDescription } from "./common";
import { DATABASE_NOUNS, allowListDeclarations, databaseKey, refusedNotActive, waitUntil, type DatabaseAccess } from "./database-common";

/** An entry as the hooks return it: the address as the list has it, and where it is. */
export type AllowListEntryObject = { id: string; engine: DatabaseEngineType; database_id: number; address: string };

/** `<engine>:<databaseId>:<address>` (the address canonical, so its spelling does not change the id; IPv6 has colons of its own). */
export const entryId = (engine: string, databaseId: number, address: string): string =>
  `${engine}:${databaseId}:${canonicalAllowListEntry(address)}`;

function parseEntryId(id: string): { engine: DatabaseEngineType; databaseId: number; address: string } {
  const [engine, database, ...address] = id.split(":");
  const found = DATABASE_ENGINES.find((e) => e === engine);
  if (!found || address.length === 0) {
    throw new Error(`${JSON.stringify(id)} is not a database allow list entry id (<engine>:<databaseId>:<address>)`);
  }
  return { engine: found, databaseId: apiId(database), address: address.join(":") };
}

const sameAddress = (a: string, b: string): boolean => canonicalAllowListEntry(a) === canonicalAllowListEntry(b);

/** One engine's databases, as the waits need them. */
const access = (engine: DatabaseEngineType): DatabaseAccess => ({
  noun: DATABASE_NOUNS[engine],
  api: (ctx) => ctx.client().databases.of(engine),
});

/**
 * A database's allow list as a document several writers share. Each read waits until the database
 * is `active` (the API refuses a `PUT` otherwise, and after our own write that is when it is
 * applied); a write refused because it is not is `busy`: read again and written again.
 */
function allowListDocument(ctx: ProviderContext, engine: DatabaseEngineType, databaseId: number): SharedDocument<Database> {
  const api = ctx.client().databases.of(engine);
  return {
    what: `${DATABASE_NOUNS[engine]} ${databaseId} allow list`,
    read: (signal) => waitUntil(ctx, access(engine), databaseId, ["active"], signal, { awaited: "active" }),
    write: (doc, signal) => api.update(databaseId, { allow_list: doc.allow_list }, { signal }),
    version: () => undefined,
    same: (a, b) => a.allow_list.length === b.allow_list.length && a.allow_list.every((entry, i) => entry === b.allow_list[i]),
    busy: refusedNotActive,
  };
}

/** Applies one change to a database's allow list with the process's shared writes; resolves with the converged record. */
function changeAllowList(
  ctx: ProviderContext,
  engine: DatabaseEngineType,
  databaseId: number,
  change: SharedChange<Database>,
  signal: AbortSignal,
): Promise<Database> {
  const doc = allowListDocument(ctx, engine, databaseId);
  return sharedWritesOf(ctx).submit(`${engine} database ${databaseId} allow list`, doc, change, signal);
}

/** Adds the address when no spelling of it is there (one already there is adopted, never doubled). */
function addAddress(address: string): SharedChange<Database> {
  return {
    what: `address ${JSON.stringify(address)}`,
    holds: (doc) => doc.allow_list.some((a) => sameAddress(a, address)),
    apply: (doc) => (doc.allow_list.some((a) => sameAddress(a, address)) ? doc : { ...doc, allow_list: [...doc.allow_list, address] }),
  };
}

/** Removes every spelling of the address, and nothing else. */
function dropAddress(address: string): SharedChange<Database> {
  return {
    what: `removal of address ${JSON.stringify(address)}`,
    holds: (doc) => !doc.allow_list.some((a) => sameAddress(a, address)),
    apply: (doc) => ({ ...doc, allow_list: doc.allow_list.filter((a) => !sameAddress(a, address)) }),
  };
}

/** The entries of a database's allow list, as the hooks return them. */
function entriesOf(engine: DatabaseEngineType, db: Pick<Database, "id" | "allow_list">): AllowListEntryObject[] {
  return db.allow_list.map((address) => ({ id: entryId(engine, db.id, address), engine, database_id: db.id, address }));
}

/** The entry of `address` in the database's list, or `undefined`. */
const entryIn = (engine: DatabaseEngineType, db: Pick<Database, "id" | "allow_list">, address: string) =>
  entriesOf(engine, db).find((e) => sameAddress(e.address, address));

/** The database's key in the program's declarations, when its engine and id are known. */
function databaseKeyOf(inputs: Values): string | undefined {
  const { engine, databaseId } = inputs;
  if (typeof engine !== "string" || databaseId === undefined || isUnknown(databaseId)) return undefined;
  return databaseKey(engine, Number(normalizeId(databaseId)));
}

/** The database as check sees it (`parentAtCheck`): `gone` when there is none of this engine with this id. */
const databaseAtCheck = (ctx: ProviderContext, engine: DatabaseEngineType, id: number, signal: AbortSignal) =>
  parentAtCheck(ctx, `${engine} database ${id} at check`, () => ctx.client().databases.of(engine).get(id, { signal }));

/** What only the program as a whole gets wrong: its database resource owns this list (gives `allowList`); and a database that is not there. */
async function sharedFailures({ ctx, inputs, signal }: { ctx: ProviderContext; inputs: Values; signal: AbortSignal }): Promise<Failure[]> {
  const key = databaseKeyOf(inputs);
  if (key === undefined) return [];
  const engine = inputs.engine as DatabaseEngineType;
  const id = apiId(inputs.databaseId);
  const owner = engine === "mysql" ? "MysqlDatabase" : "PostgresqlDatabase";
  if (allowListDeclarations(ctx).members(key).has("list")) {
    return [
      {
        property: "databaseId",
        reason:
          `${DATABASE_NOUNS[engine]} ${id} has its allow list set by a ${owner} resource of this program (its allowList), which would remove this address on its next update: ` +
          `either add ${JSON.stringify(inputs.address)} to that ${owner}'s allowList and remove this DatabaseAllowListEntry, ` +
          `or remove allowList from the ${owner} so that DatabaseAllowListEntry resources manage its addresses one by one`,
      },
    ];
  }
  if ((await databaseAtCheck(ctx, engine, id, signal)) !== "gone") return [];
  const other = DATABASE_ENGINES.find((e) => e !== engine)!;
  return [
    {
      property: "databaseId",
      reason: `there is no ${DATABASE_NOUNS[engine]} ${id}: check databaseId, and engine (${JSON.stringify(other)} if it is a ${DATABASE_NOUNS[other]})`,
    },
  ];
}

export const databaseAllowListEntrySpec = resourceSpec<AllowListEntryObject>()({
  name: "DatabaseAllowListEntry",
  noun: "database allow list entry",
  description: sharedEntryDescription("address of a managed database's allow list", undefined, "addresses"),
  adoptIdForm: { example: '"mysql:12345:203.0.113.7/32"', what: "`<engine>:<databaseId>:<address as CIDR>`" },
  example: [
    "// A database whose allow list is not its own (no `allowList`); often another stack's.",
    'const shared = new compute.MysqlDatabase("shared", { label: "shared-db", region: "us-iad", type: "g6-nanode-1", engineId: "mysql/8" });',
    'new compute.DatabaseAllowListEntry("app-to-db", {',
    '  engine: "mysql",',
    "  databaseId: shared.id,",
    '  address: "203.0.113.7",',
    "});",
  ].join("\n"),
  inputs: {
    engine: {
      schema: z.enum(DATABASE_ENGINES, { error: "engine must be mysql or postgresql" }),
      send: "never",
      required: true,
      replaceOnChange: true,
      description: "`mysql` or `postgresql`: the engine of the database (ids are per engine). Changing it replaces the entry.",
    },
    databaseId: parentIdField("databaseId", "database", "moves the address (removed from the old database's list, added to the new one's)"),
    address: {
      schema: DatabaseAllowListEntry,
      send: "never",
      required: true,
      replaceOnChange: true,
      normalize: (v) => (typeof v === "string" ? canonicalAllowListEntry(v) : v),
      keepSpelling: true,
      description:
        "An IPv4 or IPv6 address or CIDR range allowed to connect (`203.0.113.1` equals `203.0.113.1/32`). Already in the list, it is adopted, never added twice. Changing it replaces the entry.",
    },
  },
  outputs: {},
  computed: { databaseId: (entry) => entry.database_id },
  // A write waits until the database is active (an update of it or a nightly backup may be running), and again until it is applied.
  timeouts: { create: 30 * MINUTE, update: 30 * MINUTE, delete: 30 * MINUTE },
  endpoints: {
    read: DATABASE_ENGINES.map((engine) => `databases.${engine}.get`),
    write: DATABASE_ENGINES.map((engine) => `databases.${engine}.update`),
  },
  checkShared: sharedFailures,
  // An address already in the list is taken over by a create, so two stacks may hold one entry.
  // Within a stack, a renamed entry would be taken over by its new name and then removed by its
  // old name's delete: looked up at check (from the database the check reads anyway), a create of
  // an address another resource of this stack holds is refused, naming its aliases.
  naturalKey: {
    describe: (inputs) => `address ${JSON.stringify(inputs.address)} on ${DATABASE_NOUNS[inputs.engine]} ${String(inputs.databaseId)}`,
    exclusive: false,
    inputs: ["engine", "databaseId", "address"],
    atCheck: "renamed",
    resolvedByCreate: true,
    find: async ({ ctx, inputs, signal }) => {
      const db = await databaseAtCheck(ctx, inputs.engine, apiId(inputs.databaseId), signal);
      if (db === undefined || db === "gone") return [];
      const entry = entryIn(inputs.engine, db, inputs.address);
      return entry ? [entry] : [];
    },
  },
  hooks: {
    create: async ({ ctx, inputs, signal }) => {
      const databaseId = apiId(inputs.databaseId);
      const db = await changeAllowList(ctx, inputs.engine, databaseId, addAddress(inputs.address), signal);
      const entry = entryIn(inputs.engine, db, inputs.address);
      if (!entry) throw new Error(`${DATABASE_NOUNS[inputs.engine]} ${databaseId}: address ${inputs.address} is not there after the write`);
      return entry;
    },
    read: async ({ ctx, id, signal }) => {
      const { engine, databaseId, address } = parseEntryId(id);
      try {
        return entryIn(engine, await ctx.client().databases.of(engine).get(databaseId, { signal }), address);
      } catch (error) {
        if (isNotFound(error)) return undefined; // the database is gone, and its allow list with it
        throw error;
      }
    },
    delete: async ({ ctx, id, signal }) => {
      const { engine, databaseId, address } = parseEntryId(id);
      return changeAllowList(ctx, engine, databaseId, dropAddress(address), signal);
    },
  },
  // A refresh reads a database once for all its entries.
  listing: {
    collection: (values) => databaseKeyOf(values),
    list: async ({ ctx, collection, signal }) => {
      const [engine, id] = collection.split(" ") as [DatabaseEngineType, string];
      return entriesOf(engine, await ctx.client().databases.of(engine).get(Number(id), { signal }));
    },
  },
});
