/**
 * Every API request the emulator received (control requests excluded), in arrival order, so a
 * test can prove a client sent nothing (local validation) or sent exactly one request (no retry).
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

export class RequestLog {
  private entries: RequestLogEntry[] = [];
  /** The entry of each in-flight request, keyed by the raw request object. */
  private readonly inFlight = new WeakMap<object, RequestLogEntry>();

  /** Records an arrival; the entry is completed in place when the answer goes out. */
  start(request: object, method: string, path: string, at: string): RequestLogEntry {
    const item: RequestLogEntry = { method, path, status: null, at };
    this.entries.push(item);
    this.inFlight.set(request, item);
    return item;
  }

  /** The entry recorded for a request, if it was an API request. */
  entryOf(request: object): RequestLogEntry | undefined {
    return this.inFlight.get(request);
  }

  list(): RequestLogEntry[] {
    return this.entries.map((e) => ({ ...e }));
  }

  clear(): void {
    this.entries = [];
  }
}
