/**
 * Coalesced reads: reads of many objects of one collection that arrive together — the records of a
 * domain during a refresh — are served by one listing of the collection (its pages at 500) instead
 * of one GET each.
 *
 * A read joins the collection's open batch; a batch closes `windowMs` after its first read, or,
 * once a second read has joined it, at the event loop's next turn: the reads of a burst (the
 * engine sends a refresh's reads together) are all there by then, and a refresh waited the
 * whole window for nothing. A batch of one read is one GET (a listing would cost as much or
 * more). A larger batch lists the
 * collection once, and every read of it takes its object from that listing; reads that arrive while
 * the listing is in flight, or up to `reuseMs` after it completed, take theirs from it too (a burst
 * of a thousand reads is served by one listing). A read whose object the listing lacks falls back
 * to its own GET, so "not found" still comes from the object's own 404 and means gone. A listing
 * that fails with 404 (the collection itself is gone) fails every read of it with that error; any
 * other failure of the listing sends each read to its own GET.
 *
 * Writes invalidate: `invalidate(key)` after a create, update or delete in the collection makes
 * later reads wait for a listing requested after the write, so a process never reads back an
 * older copy of what it just wrote. `list(key)` gives the whole collection from the same shared
 * listing, for lookups by natural key before creates; those only list again after `forget(key)`
 * (a create whose answer was lost). Timers are injectable for tests.
 */
import { isNotFound } from "./errors";

/** How to read one collection: list all of it, or get one object. */
export interface CollectionReader<T> {
  /** Every object of the collection (all pages). */
  list(signal: AbortSignal): Promise<T[]>;
  /** One object by id: `undefined` when gone (or rejects with the API's 404, as the caller prefers). */
  get(signal?: AbortSignal): Promise<T | undefined>;
  /** The id of a listed object, as reads name it. */
  idOf(item: T): string;
}

export interface CoalescerOptions {
  /** How long a batch stays open after its first read (ms). Default 50. */
  windowMs?: number;
  /**
   * How long a completed listing keeps serving reads (ms). Default 10 000: the engine sends a
   * refresh's reads together, but on a busy machine they reach the provider over seconds, and a
   * refresh is a snapshot taken over its whole run anyway. Writes in this process invalidate it.
   */
  reuseMs?: number;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => void;
  /** Runs `fn` at the event loop's next turn. Default `setImmediate`. */
  onIdle?: (fn: () => void) => void;
}

/** Counts of what coalescing did, for reports and tests. */
export interface CoalescerStats {
  /** Reads asked for. */
  reads: number;
  /** Listings made (each may be several pages). */
  listings: number;
  /** Reads served by a listing. */
  fromListing: number;
  /** Reads that made their own GET (alone in their batch, or missing from the listing). */
  gets: number;
}

interface Pending<T> {
  id: string;
  reader: CollectionReader<T>;
  signal?: AbortSignal;
  resolve: (value: T | undefined) => void;
  reject: (error: unknown) => void;
}

interface Listing<T> {
  /** The listing, as listed; rejects as the listing did. */
  all: Promise<readonly T[]>;
  /** The listing, by id; rejects as the listing did. */
  items: Promise<Map<string, T>>;
  /** The write generation it was requested in. */
  generation: number;
  /** The epoch it was requested in (see `forget`). */
  epoch: number;
  /** When it completed (epoch ms), once it has. */
  doneAt?: number;
}

interface Collection<T> {
  /** Counts this process's writes to the collection: reads need a listing requested after the last. */
  generation: number;
  /** Counts `forget`s: lookups need a listing requested after the last. */
  epoch: number;
  batch?: Array<Pending<T>>;
  listing?: Listing<T>;
}

export class Coalescer {
  private readonly windowMs: number;
  private readonly reuseMs: number;
  private readonly now: () => number;
  private readonly setTimer: (fn: () => void, ms: number) => void;
  private readonly onIdle: (fn: () => void) => void;
  private readonly collections = new Map<string, Collection<unknown>>();
  readonly stats: CoalescerStats = { reads: 0, listings: 0, fromListing: 0, gets: 0 };

  constructor(options: CoalescerOptions = {}) {
    this.windowMs = options.windowMs ?? 50;
    this.reuseMs = options.reuseMs ?? 10_000;
    this.now = options.now ?? Date.now;
    this.setTimer = options.setTimer ?? ((fn, ms) => void setTimeout(fn, ms));
    this.onIdle = options.onIdle ?? ((fn) => void setImmediate(fn));
  }

  /** Reads object `id` of collection `key` (a domain's records: `DomainRecord 123`), coalesced with the reads around it. */
  read<T>(key: string, id: string, reader: CollectionReader<T>, signal?: AbortSignal): Promise<T | undefined> {
    this.stats.reads += 1;
    const collection = this.collection<T>(key);
    const listing = this.reusable(collection);
    if (listing) return this.fromListing(listing, id, reader, signal);
    return new Promise<T | undefined>((resolve, reject) => {
      const pending: Pending<T> = { id, reader, signal, resolve, reject };
      const open = collection.batch;
      if (open) {
        open.push(pending);
        if (open.length === 2) this.onIdle(() => this.close(collection, open));
        return;
      }
      const batch = [pending];
      collection.batch = batch;
      this.setTimer(() => this.close(collection, batch), this.windowMs);
    });
  }

  /**
   * Every object of collection `key`, from the listing the reads and lookups around it share (one
   * in flight, or completed within `reuseMs`, requested after the last `forget`), else a new one
   * started now: a burst of creates that each look for an existing twin first lists once (each
   * lookup keeps the listing `reuseMs` longer). This
   * process's own writes do not make it list again — a lookup for one object's key is not
   * changed by the creates of other keys — but `forget` does. The same array for every lookup
   * that shares a listing: a caller may index it once (a burst of N lookups then costs N, not N²).
   */
  list<T>(key: string, reader: Pick<CollectionReader<T>, "list" | "idOf">): Promise<readonly T[]> {
    const collection = this.collection<T>(key);
    const reused = this.reusable(collection, "epoch");
    // A burst of lookups keeps its listing: each one extends its life by `reuseMs` (creates paced
    // by the API's rate limits arrive over minutes).
    if (reused?.doneAt !== undefined) reused.doneAt = this.now();
    const listing = reused ?? this.startListing(collection, reader);
    return listing.all;
  }

  /** A write to collection `key`: later reads are served by a listing requested after it. */
  invalidate(key: string): void {
    const collection = this.collections.get(key);
    if (collection) collection.generation += 1;
  }

  /**
   * Something may have changed collection `key` that this process does not know (a create whose
   * answer was lost): later reads and `list`s are served by a listing requested after it.
   */
  forget(key: string): void {
    const collection = this.collections.get(key);
    if (collection) {
      collection.generation += 1;
      collection.epoch += 1;
    }
  }

  private collection<T>(key: string): Collection<T> {
    let collection = this.collections.get(key);
    if (!collection) {
      collection = { generation: 0, epoch: 0 };
      this.collections.set(key, collection);
    }
    return collection as Collection<T>;
  }

  /** Closes `batch`, unless it is closed already (the window's end and the loop's next turn both close it). */
  private close<T>(collection: Collection<T>, batch: Array<Pending<T>>): void {
    if (collection.batch !== batch) return;
    collection.batch = undefined;
    if (batch.length === 1) {
      const [only] = batch;
      this.stats.gets += 1;
      only!.reader.get(only!.signal).then(only!.resolve, only!.reject);
      return;
    }
    const listing = this.startListing(collection, batch[0]!.reader);
    for (const pending of batch)
      this.fromListing(listing, pending.id, pending.reader, pending.signal).then(pending.resolve, pending.reject);
  }

  /** The collection's listing when it may still serve: same write generation (or epoch, for `list`), in flight or recent. */
  private reusable<T>(collection: Collection<T>, since: "generation" | "epoch" = "generation"): Listing<T> | undefined {
    const listing = collection.listing;
    const fresh = listing && listing[since] === collection[since];
    return fresh && (listing.doneAt === undefined || this.now() - listing.doneAt <= this.reuseMs) ? listing : undefined;
  }

  private startListing<T>(collection: Collection<T>, reader: Pick<CollectionReader<T>, "list" | "idOf">): Listing<T> {
    this.stats.listings += 1;
    // The listing is shared: it is not cancelled by one read's deadline, only bounded by the client's own.
    const all = reader.list(new AbortController().signal);
    const items = all.then((listed) => new Map(listed.map((item) => [reader.idOf(item), item])));
    const listing: Listing<T> = { generation: collection.generation, epoch: collection.epoch, all, items };
    const done = () => void (listing.doneAt = this.now());
    items.then(done, done);
    collection.listing = listing;
    return listing;
  }

  private async fromListing<T>(listing: Listing<T>, id: string, reader: CollectionReader<T>, signal?: AbortSignal): Promise<T | undefined> {
    let items: Map<string, T>;
    try {
      items = await listing.items;
    } catch (error) {
      if (isNotFound(error)) throw error; // the collection is gone, and every object in it
      this.stats.gets += 1;
      return reader.get(signal);
    }
    const item = items.get(id);
    if (item !== undefined) {
      this.stats.fromListing += 1;
      return item;
    }
    // Not in the listing: created since, or gone. Its own GET decides (a 404 means gone).
    this.stats.gets += 1;
    return reader.get(signal);
  }
}
