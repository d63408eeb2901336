/**
 * Changes to a document several writers share, through an API that can only replace it whole (a
 * firewall's rules: `PUT .../rules` replaces both rulesets; a database's allow list, replaced by
 * the database's `PUT`) and has no conditional write. Each resource owns a part of the document
 * (one rule, one address); what it does not own belongs to someone else and must come back
 * exactly as read.
 *
 * Inside one provider process, `SharedWrites` serializes the writes to one document and batches
 * the changes that arrive together (the rules of one `up`, created at once when their firewall is
 * ready) into one read and one write; changes that arrive while a batch is confirming join it
 * after its next read, so one confirmation serves them all. Across processes (another stack, a person in the console)
 * nothing can be locked, so each round:
 *
 * 1. reads, applies every change of the batch and writes back at once (a small window);
 * 2. compares the write's answer with the version it read: not one more means someone else wrote
 *    in between (said as progress; step 3 finds out whether it cost anything). A document without
 *    a version (a database's record) skips this step; step 3 alone tells;
 * 3. converges: waits a short randomized moment, reads again, and writes the batch's changes
 *    again when one does not hold any more (someone's stale write erased it), until two reads in
 *    a row agree and hold every change.
 *
 * A write the API refuses only because the document is busy with another write (a database is
 * `updating` for a minute after each `PUT`, and refuses the next until `active`) was not applied:
 * the round reads again (a document whose writes need a status waits for it in its `read`) and
 * builds the write again on that read.
 *
 * Each writer making sure of its own part is what brings concurrent writers to the union of their
 * parts. What remains (`docs/guides/firewall-rules-from-several-stacks.md`): a stale write that lands
 * after another writer's last check erases that writer's part until its next `up` or refresh.
 */
import { ApiError } from "../../sdk/core/errors";
import type { Sleep } from "../../sdk/core/http";
import type { ProviderContext } from "./context";
import { isAmbiguous } from "./natural-key";
import { REAL_TIME } from "./time";

/** One shared document: how to read and replace it, and how to tell its versions apart. */
export interface SharedDocument<Doc> {
  /** The document in words, for progress and errors: `firewall 228001 rules`. */
  what: string;
  /** Reads the document; where a write needs a status (a database `active`), waits for it first. */
  read(signal: AbortSignal): Promise<Doc>;
  /** Replaces the document; returns the API's answer. */
  write(doc: Doc, signal: AbortSignal): Promise<Doc>;
  /** The document's version when the API sends one (one more on every write); `undefined` when it has none. */
  version(doc: Doc): number | undefined;
  /** Whether two reads show the same document (same version and content). */
  same(a: Doc, b: Doc): boolean;
  /**
   * Whether `error` refused a write only because the document is busy with another write (a
   * database not `active`): nothing was applied, and the round reads again and writes again.
   * Default: no error is.
   */
  busy?(error: unknown): boolean;
}

/** One writer's change: what it does to a document, and whether a document shows it. */
export interface SharedChange<Doc> {
  /** The change in words: `inbound rule "app-https"`. */
  what: string;
  /** The document with this change applied (the same document when it already holds). */
  apply(doc: Doc): Doc;
  holds(doc: Doc): boolean;
  /**
   * Why the change must not be made on this document, if so (a rule with its label that someone
   * else owns): checked on the first read it meets, before it is ever written; the change then
   * fails alone with this error, and the rest of the batch goes on.
   */
  refuse?(doc: Doc): Error | undefined;
}

/** Timing of the convergence; tests make it fast. */
export interface ConvergeTiming {
  /** Collects the changes that arrive together into one batch. */
  gatherMs: number;
  /** The randomized wait before each confirming read: between `minWaitMs` and `maxWaitMs`. */
  minWaitMs: number;
  maxWaitMs: number;
  /** Writes of a change someone erased before giving up (someone keeps erasing it); also the busy refusals a round takes. */
  maxWrites: number;
  random: () => number;
}

export const DEFAULT_TIMING: ConvergeTiming = { gatherMs: 100, minWaitMs: 150, maxWaitMs: 600, maxWrites: 12, random: Math.random };

/** Thrown when a batch's changes could not be made to hold within `maxWrites` writes. */
export class UnconvergedWriteError extends Error {
  override name = "UnconvergedWriteError";
}

interface Pending<Doc> {
  change: SharedChange<Doc>;
  signal: AbortSignal;
  resolve(doc: Doc): void;
  reject(error: unknown): void;
}

interface Queue<Doc> {
  doc: SharedDocument<Doc>;
  pending: Array<Pending<Doc>>;
  running: boolean;
}

/** Counts of what the writes did, for tests and benchmarks. */
export interface SharedWriteStats {
  reads: number;
  writes: number;
  /** Writes whose answer showed another writer between the read and the write. */
  interleaved: number;
  /** Writes made again because a change no longer held. */
  rewrites: number;
  /** Writes the API refused because the document was busy with another write (read and made again). */
  busy: number;
}

/** The serialized, batched, converging writes of one provider process (one per session). */
export class SharedWrites {
  private readonly queues = new Map<string, Queue<unknown>>();
  readonly stats: SharedWriteStats = { reads: 0, writes: 0, interleaved: 0, rewrites: 0, busy: 0 };

  /** `sleep`: the pauses of gathering and confirming, on the provider's time (`ProviderContext.time`). */
  constructor(
    private readonly progress: (line: string) => void = () => {},
    private readonly timing: ConvergeTiming = DEFAULT_TIMING,
    private readonly sleep: Sleep = REAL_TIME.sleep,
  ) {}

  /**
   * Applies `change` to the document `key` names, together with the other changes that arrive
   * meanwhile; resolves with the converged document (every change of the batch holds in two reads
   * in a row) or rejects with the failure of its write.
   */
  submit<Doc>(key: string, doc: SharedDocument<Doc>, change: SharedChange<Doc>, signal: AbortSignal): Promise<Doc> {
    let queue = this.queues.get(key) as Queue<Doc> | undefined;
    if (!queue) {
      queue = { doc, pending: [], running: false };
      this.queues.set(key, queue as Queue<unknown>);
    }
    const result = new Promise<Doc>((resolve, reject) => queue.pending.push({ change, signal, resolve, reject }));
    if (!queue.running) void this.drain(key, queue);
    return result;
  }

  private async drain<Doc>(key: string, queue: Queue<Doc>): Promise<void> {
    queue.running = true;
    try {
      await this.sleep(this.timing.gatherMs);
      while (queue.pending.length > 0) {
        const batch = live(queue.pending.splice(0));
        if (batch.length > 0) await this.round(queue, batch);
      }
    } finally {
      queue.running = false;
      this.queues.delete(key);
    }
  }

  /**
   * One batch, which takes in the changes that arrive while it runs (the creates of one `up` reach
   * the provider over a second or more); a write the API refuses is tried again change by change,
   * so one bad change fails alone.
   */
  private async round<Doc>(queue: Queue<Doc>, batch: Array<Pending<Doc>>, absorb = true): Promise<void> {
    const signal = new BatchSignal(batch.map((p) => p.signal));
    const join = () => {
      if (!absorb) return;
      for (const p of live(queue.pending.splice(0))) {
        batch.push(p);
        signal.add(p.signal);
      }
    };
    try {
      const converged = await this.converge(queue.doc, batch, join, signal.signal);
      for (const p of batch) p.resolve(converged);
    } catch (error) {
      if (batch.length > 1 && error instanceof ApiError && error.status < 500) {
        for (const p of batch) await this.round(queue, [p], false);
        return;
      }
      for (const p of batch) p.reject(error);
    }
  }

  private async converge<Doc>(doc: SharedDocument<Doc>, batch: Array<Pending<Doc>>, join: () => void, signal: AbortSignal): Promise<Doc> {
    const holdsAll = (d: Doc) => batch.every((p) => p.change.holds(d));
    const written = new Set<SharedChange<Doc>>();
    const checked = new Set<SharedChange<Doc>>();
    /** Changes met for the first time are checked on this read; a refused one leaves the batch, failed. */
    const admit = (d: Doc) => {
      for (const p of [...batch]) {
        if (checked.has(p.change)) continue;
        checked.add(p.change);
        const refusal = p.change.refuse?.(d);
        if (refusal) {
          batch.splice(batch.indexOf(p), 1);
          p.reject(refusal);
        }
      }
    };
    let rewrites = 0;
    let refusals = 0;
    let current = await this.read(doc, signal);
    for (;;) {
      // Changes that arrived meanwhile join here, right after a read: their write follows it at once.
      join();
      admit(current);
      if (batch.length === 0) return current;
      if (!holdsAll(current)) {
        const erased = batch.map((p) => p.change).filter((c) => written.has(c) && !c.holds(current));
        if (erased.length > 0) {
          if (rewrites >= this.timing.maxWrites) {
            throw new UnconvergedWriteError(
              `${doc.what}: ${describe(erased, current)} still did not hold after ${rewrites + 1} writes; another writer keeps replacing it. Run the update again when the other writer is done.`,
            );
          }
          rewrites++;
          this.stats.rewrites++;
          this.progress(`${doc.what}: ${describe(erased, current)} no longer there after a write by someone else; writing it again`);
          // Said once: a busy refusal of the write again reads again, and must not count the erasure twice.
          for (const c of erased) written.delete(c);
        }
        const changes = batch.map((p) => p.change);
        const refused = await this.write(
          doc,
          current,
          changes.reduce<Doc>((d, c) => c.apply(d), current),
          signal,
        );
        if (refused) {
          if (refusals >= this.timing.maxWrites) {
            throw new UnconvergedWriteError(
              `${doc.what}: ${refusals + 1} writes refused while another write was being applied; another writer keeps it busy. Run the update again when the other writer is done.`,
              { cause: refused },
            );
          }
          refusals++;
          this.stats.busy++;
          this.progress(`${doc.what}: refused while another write was being applied; waiting to write again`);
          current = await this.read(doc, signal);
          continue;
        }
        for (const c of changes) written.add(c);
      }
      // Confirm: a randomized wait (so concurrent writers do not keep colliding), then reads until
      // two in a row agree and hold every change.
      await this.sleep(this.wait(), signal);
      const first = await this.read(doc, signal);
      join();
      admit(first);
      if (!holdsAll(first)) {
        current = first;
        continue;
      }
      await this.sleep(this.wait(), signal);
      const second = await this.read(doc, signal);
      if (holdsAll(second) && doc.same(first, second)) return second;
      current = second;
    }
  }

  private async read<Doc>(doc: SharedDocument<Doc>, signal: AbortSignal): Promise<Doc> {
    this.stats.reads++;
    return doc.read(signal);
  }

  /**
   * Writes `next` built on `read`; an answer lost on the way is left to the confirming reads.
   * Returns the refusal when the document was busy (nothing written).
   */
  private async write<Doc>(doc: SharedDocument<Doc>, read: Doc, next: Doc, signal: AbortSignal): Promise<Error | undefined> {
    this.stats.writes++;
    let answer: Doc;
    try {
      answer = await doc.write(next, signal);
    } catch (error) {
      if (doc.busy?.(error)) return error instanceof Error ? error : new Error(String(error));
      if (!isAmbiguous(error)) throw error;
      this.progress(`${doc.what}: the write's answer was lost (${error instanceof Error ? error.message : String(error)}); reading to see`);
      return undefined;
    }
    const before = doc.version(read);
    const after = doc.version(answer);
    if (before !== undefined && after !== undefined && after !== before + 1) {
      this.stats.interleaved++;
      this.progress(`${doc.what}: written as version ${after} on version ${before}: someone else wrote in between; checking`);
    }
    return undefined;
  }

  private wait(): number {
    const { minWaitMs, maxWaitMs, random } = this.timing;
    return Math.round(minWaitMs + random() * (maxWaitMs - minWaitMs));
  }
}

/**
 * The process's shared writes: one per provider process, so every resource it serves that writes
 * one document goes through the same queue. `timing` counts only for the first call (tests).
 */
export function sharedWritesOf(ctx: ProviderContext, timing?: ConvergeTiming): SharedWrites {
  return ctx.shared("shared writes", () => new SharedWrites((line) => ctx.progress(line), timing, ctx.time.sleep));
}

function describe<Doc>(changes: Array<SharedChange<Doc>>, doc: Doc): string {
  return changes
    .filter((c) => !c.holds(doc))
    .map((c) => c.what)
    .join(", ");
}

/** The pending changes still wanted (the others are rejected with their abort reason). */
function live<Doc>(pending: Array<Pending<Doc>>): Array<Pending<Doc>> {
  return pending.filter((p) => !p.signal.aborted || (p.reject(p.signal.reason), false));
}

/** Aborts when every one of the batch's signals has (a batch goes on while anyone still waits for it). */
class BatchSignal {
  private readonly controller = new AbortController();
  private left = 0;

  constructor(signals: AbortSignal[]) {
    for (const s of signals) this.add(s);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  add(s: AbortSignal): void {
    this.left++;
    const done = () => {
      if (--this.left === 0) this.controller.abort(s.reason);
    };
    if (s.aborted) done();
    else s.addEventListener("abort", done, { once: true });
  }
}
