/**
 * The most recent API requests the emulator received (control requests excluded), in arrival
 * order, so a test can prove a client sent nothing (local validation) or sent exactly one request
 * (no retry). It is a ring of a fixed size (`requestLogSize`, default 10,000): an emulator that
 * runs for days as a shared test server keeps the last requests, not every request it ever served
 * (about 300 bytes each). A test that needs a longer history clears the log first or enlarges it.
 */
export interface RequestLogEntry {
  method: string;
  /** Path with the query string, e.g. `/v4/vpcs?page=2`. */
  path: string;
  /** Status sent; 0 when the connection was reset instead; null while still being processed. */
  status: number | null;
  /** Emulated arrival time, ISO 8601 with milliseconds. */
  at: string;
  /** The fault that hit this request, if any. */
  fault?: string;
}

/** How many requests the log keeps unless told otherwise. */
export const DEFAULT_REQUEST_LOG_SIZE = 10_000;

/** A log size must be a whole number ≥ 0 (0 keeps nothing). */
export function checkRequestLogSize(size: number): number {
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`requestLogSize: ${size} is not a whole number ≥ 0`);
  return size;
}

export class RequestLog {
  /** Slots of the ring; `next` is where the next entry goes once it is full. */
  private ring: RequestLogEntry[] = [];
  private next = 0;
  private size: number;
  private droppedCount = 0;
  /** The entry of each in-flight request, keyed by the raw request object (forgotten with it). */
  private readonly inFlight = new WeakMap<object, RequestLogEntry>();

  constructor(size = DEFAULT_REQUEST_LOG_SIZE) {
    this.size = checkRequestLogSize(size);
  }

  /** How many entries the log keeps. */
  get capacity(): number {
    return this.size;
  }

  /** Entries pushed out of the ring since the last `clear` (the history is longer than `list()` shows). */
  get dropped(): number {
    return this.droppedCount;
  }

  /** Records an arrival; the entry is completed in place when the answer goes out. */
  start(request: object, method: string, path: string, at: string): RequestLogEntry {
    const item: RequestLogEntry = { method, path, status: null, at };
    this.inFlight.set(request, item);
    if (this.size === 0) {
      this.droppedCount++;
    } else if (this.ring.length < this.size) {
      this.ring.push(item);
    } else {
      this.ring[this.next] = item;
      this.next = (this.next + 1) % this.size;
      this.droppedCount++;
    }
    return item;
  }

  /** The entry recorded for a request, if it was an API request. */
  entryOf(request: object): RequestLogEntry | undefined {
    return this.inFlight.get(request);
  }

  /** The kept entries, oldest first (copies). */
  list(): RequestLogEntry[] {
    return this.ordered().map((e) => ({ ...e }));
  }

  /** Keeps the most recent `size` entries from now on (the newest of the current ones stay). */
  resize(size: number): void {
    checkRequestLogSize(size);
    const ordered = this.ordered();
    const kept = size === 0 ? [] : ordered.slice(Math.max(0, ordered.length - size));
    this.droppedCount += ordered.length - kept.length;
    this.ring = kept;
    this.next = 0;
    this.size = size;
  }

  /** The ring's own entries, oldest first (in-flight ones are completed in place, so never copies here). */
  private ordered(): RequestLogEntry[] {
    return [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)];
  }

  clear(): void {
    this.ring = [];
    this.next = 0;
    this.droppedCount = 0;
  }
}
