/**
 * The emulator's clock. Emulated time runs `scale` times faster than real time and can be pushed
 * forward by hand (`advance`), so tests can watch hour-long status transitions in milliseconds.
 * Work scheduled on this clock (`at`, `after`) runs lazily: before every request and on a short
 * timer, never from a real-time sleep, so advancing the clock runs everything that became due.
 * While a task runs, `now` reads the task's due time: what it records (an event's time, an
 * `updated` stamp) and what it schedules next are relative to when it was meant to happen, so a
 * chain of transitions completes correctly even when the clock jumps a day ahead at once.
 */

export interface ClockOptions {
  /** Emulated milliseconds per real millisecond (default 1). */
  scale?: number;
  /** Emulated time at start, epoch ms (default: real now). */
  startMs?: number;
  /** Real time source, injectable for unit tests (default `Date.now`). */
  realNow?: () => number;
  /** How often (real ms) due tasks are checked without a request arriving (default 100; 0 = never). */
  tickMs?: number;
  /** Called after a pass that ran at least one task (the emulator persists state there). */
  afterRun?: () => void;
}

export interface ClockSnapshot {
  /** API-style timestamp of emulated now (`2024-05-01T12:00:00`). */
  now: string;
  /** Emulated now, ISO 8601 with milliseconds and zone. */
  iso: string;
  /** Emulated now, epoch milliseconds. */
  epochMs: number;
  scale: number;
  /** Scheduled tasks not yet run. */
  pending: number;
}

/**
 * Work kept as data instead of callbacks: a service whose records carry a pending transition
 * (`{to, at}`) exposes it through a source. On every pass the clock asks each source for its
 * earliest due time and runs that work in time order together with the scheduled tasks, so a
 * persisted state file keeps every pending transition (callbacks cannot be persisted).
 */
export interface DueSource {
  /** Earliest emulated time (epoch ms) at which the source has work, if any. */
  nextDueMs(): number | undefined;
  /** Runs the work due at `dueMs`; meanwhile the clock's now reads `dueMs`. */
  runDue(dueMs: number): void;
}

interface ScheduledTask {
  id: number;
  dueMs: number;
  scheduledMs: number;
  run: () => void;
}

/** `2024-05-01T12:00:00`: UTC, no zone, no milliseconds — how the API writes timestamps. */
export function formatTimestamp(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 19);
}

/** Reads an API timestamp (UTC without zone) back into epoch ms. */
export function parseTimestamp(text: string): number {
  return Date.parse(`${text}Z`);
}

export class Clock {
  private scaleValue: number;
  /** Emulated ms at the moment `anchorReal` was taken; re-anchored whenever the scale changes. */
  private anchorEmulated: number;
  private anchorReal: number;
  private readonly realNow: () => number;
  private readonly afterRun: (() => void) | undefined;
  private tasks: ScheduledTask[] = [];
  private readonly sources: DueSource[] = [];
  private nextTaskId = 1;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  /** Due time of the task being run, which is "now" for that task. */
  private runningAt: number | undefined;

  constructor(options: ClockOptions = {}) {
    this.realNow = options.realNow ?? Date.now;
    this.afterRun = options.afterRun;
    this.scaleValue = Clock.checkScale(options.scale ?? 1);
    this.anchorReal = this.realNow();
    this.anchorEmulated = options.startMs ?? this.anchorReal;
    const tickMs = options.tickMs ?? 100;
    if (tickMs > 0) {
      this.timer = setInterval(() => this.runDue(), tickMs);
      // The clock must never keep a process (a CLI run, a jest worker) alive on its own.
      this.timer.unref();
    }
  }

  private static checkScale(scale: number): number {
    if (!Number.isFinite(scale) || scale < 0) throw new RangeError(`clock scale must be a finite number >= 0, got ${scale}`);
    return scale;
  }

  /** Emulated now, epoch ms. */
  nowMs(): number {
    if (this.runningAt !== undefined) return this.runningAt;
    return this.anchorEmulated + (this.realNow() - this.anchorReal) * this.scaleValue;
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  /** Emulated now as an API timestamp. */
  timestamp(): string {
    return formatTimestamp(this.nowMs());
  }

  get scale(): number {
    return this.scaleValue;
  }

  setScale(scale: number): void {
    const checked = Clock.checkScale(scale);
    this.anchorEmulated = this.nowMs();
    this.anchorReal = this.realNow();
    this.scaleValue = checked;
  }

  /** Moves emulated time forward (never back: finished transitions cannot be undone) and runs what fell due. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advance needs a finite number of ms >= 0, got ${ms}`);
    this.anchorEmulated += ms;
    this.runDue();
  }

  /** Makes emulated now at least `epochMs` (used when restoring persisted state). */
  ensureAtLeast(epochMs: number): void {
    const now = this.nowMs();
    if (epochMs > now) this.advance(epochMs - now);
  }

  /** Runs `run` once emulated time reaches `epochMs`. Returns a handle for `cancel`. */
  at(epochMs: number, run: () => void): number {
    const id = this.nextTaskId++;
    this.tasks.push({ id, dueMs: epochMs, scheduledMs: this.nowMs(), run });
    return id;
  }

  /** Runs `run` after `ms` of emulated time. */
  after(ms: number, run: () => void): number {
    return this.at(this.nowMs() + ms, run);
  }

  /** Registers work kept as data (see `DueSource`); it runs lazily like the scheduled tasks. */
  addSource(source: DueSource): void {
    this.sources.push(source);
  }

  cancel(id: number): boolean {
    const before = this.tasks.length;
    this.tasks = this.tasks.filter((t) => t.id !== id);
    return this.tasks.length < before;
  }

  /** Drops every scheduled task (emulator reset). */
  clearTasks(): void {
    this.tasks = [];
  }

  get pending(): number {
    return this.tasks.length;
  }

  /**
   * Runs every task whose time has come, earliest first (ties in scheduling order). A task may
   * schedule further tasks; those run in the same pass when they are already due.
   */
  runDue(): number {
    if (this.running) return 0; // a task that triggers runDue again must not re-enter
    this.running = true;
    let ran = 0;
    try {
      const now = this.nowMs();
      // A source that reports the same work again after running it would loop forever; skip it.
      const stalled = new Set<DueSource>();
      for (;;) {
        const due = this.tasks.filter((t) => t.dueMs <= now).sort((a, b) => a.dueMs - b.dueMs || a.id - b.id)[0];
        const source = this.earliestSource(now, stalled);
        if (source && (!due || source.dueMs < due.dueMs)) {
          ran++;
          this.runningAt = source.dueMs;
          try {
            source.source.runDue(source.dueMs);
          } finally {
            this.runningAt = undefined;
          }
          const again = source.source.nextDueMs();
          if (again !== undefined && again <= source.dueMs) stalled.add(source.source);
          continue;
        }
        if (!due) break;
        this.tasks = this.tasks.filter((t) => t !== due);
        ran++;
        // A task scheduled for a time already past runs "at" its scheduling time, never earlier.
        this.runningAt = Math.max(due.dueMs, due.scheduledMs);
        try {
          due.run();
        } finally {
          this.runningAt = undefined;
        }
      }
    } finally {
      this.running = false;
    }
    if (ran > 0) this.afterRun?.();
    return ran;
  }

  private earliestSource(now: number, skip: ReadonlySet<DueSource>): { source: DueSource; dueMs: number } | undefined {
    let best: { source: DueSource; dueMs: number } | undefined;
    for (const source of this.sources) {
      if (skip.has(source)) continue;
      const dueMs = source.nextDueMs();
      if (dueMs !== undefined && dueMs <= now && (!best || dueMs < best.dueMs)) best = { source, dueMs };
    }
    return best;
  }

  snapshot(): ClockSnapshot {
    const epochMs = this.nowMs();
    return {
      now: formatTimestamp(epochMs),
      iso: new Date(epochMs).toISOString(),
      epochMs,
      scale: this.scaleValue,
      pending: this.tasks.length,
    };
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.tasks = [];
  }
}
