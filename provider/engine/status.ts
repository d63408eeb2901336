/**
 * The words of a resource's status while a step works: a wait for a status, an upload, a retry,
 * a wait for rate-limit budget. Shown on the resource's own row (`ProviderContext.status`), which
 * names the resource and is cut to the terminal's width, so each text leads with what matters:
 * what is awaited and for how long so far, then the object's status and how long the wait usually
 * takes where the API documents it; once over, that it is done. The object's name (`about`) is
 * printed before the text only where there is no row (another host, a test).
 */
import type { PaceEvent, RetryEvent } from "../../sdk/core/http";
import { formatDuration } from "./values";

/** One wait for a status: `MySQL database 28000 (my-db)` until `active`. */
export interface StatusWait {
  /** The object, as messages name it (`about`): `MySQL database 28000 (my-db)`. */
  what: string;
  /** What ends the wait, in words: `active`, `deletable`. */
  until: string;
  /** How long it usually takes where the API documents it: `15–30 min at real speed`. */
  usual?: string;
}

/** `waiting for active, 2m10s so far: provisioning (usually 15–30 min at real speed)`. */
export function waitingText(wait: StatusWait, status: string, elapsedMs: number): string {
  const usual = wait.usual === undefined ? "" : ` (usually ${wait.usual})`;
  return `waiting for ${wait.until}, ${formatDuration(elapsedMs)} so far: ${status}${usual}`;
}

/** `active after 12m30s; done waiting`. */
export function waitedText(status: string, elapsedMs: number): string {
  return `${status} after ${formatDuration(elapsedMs)}; done waiting`;
}

/**
 * Reports a wait on `report` (with the object's name, `about`): its first state, every change,
 * every `everyMs` of sameness, and its end (`isOver`) as done. A wait over at its first poll
 * says nothing.
 */
export function waitReporter(
  wait: StatusWait,
  isOver: (status: string) => boolean,
  report: (text: string, about: string) => void,
  everyMs = 30_000,
): (status: string, elapsedMs: number) => void {
  let last: string | undefined;
  let lastAt = -Infinity;
  return (status, elapsedMs) => {
    if (isOver(status)) {
      if (last !== undefined) report(waitedText(status, elapsedMs), wait.what);
      last = undefined;
      return;
    }
    if (status === last && elapsedMs - lastAt < everyMs) return;
    last = status;
    lastAt = elapsedMs;
    report(waitingText(wait, status, elapsedMs), wait.what);
  };
}

const MB = 1048576;

/**
 * `uploaded 5.0 MB of 8.0 MB (62%)`. The share is rounded down and the byte counts are rounded so
 * that they agree with it: what was sent down, the size up, so `8.0 MB of 8.0 MB` and `100%` are
 * only ever said of a finished upload.
 */
export function uploadText(sentBytes: number, totalBytes: number): string {
  const percent = totalBytes === 0 ? 100 : Math.floor((sentBytes * 100) / totalBytes);
  const [sent, total] = totalBytes < MB ? byUnit(sentBytes, totalBytes, 1024, 0, "KB") : byUnit(sentBytes, totalBytes, MB, 1, "MB");
  return `uploaded ${sent} of ${total} (${percent}%)`;
}

function byUnit(sent: number, total: number, unit: number, digits: number, name: string): [string, string] {
  const scale = 10 ** digits;
  const up = Math.ceil((total / unit) * scale) / scale;
  const down = sent >= total ? up : Math.floor((sent / unit) * scale) / scale;
  return [`${down.toFixed(digits)} ${name}`, `${up.toFixed(digits)} ${name}`];
}

/** `812 KB`, `256.0 MB`: a size on its own. */
export function formatBytes(bytes: number): string {
  return bytes < MB ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / MB).toFixed(1)} MB`;
}

/** `retrying GET /vpcs/12 in 180 ms (attempt 2): server error (5xx)`. */
export function retryText(event: RetryEvent): string {
  return `retrying ${event.method} ${event.path} in ${event.delayMs} ms (attempt ${event.attempt + 1}): ${event.reason}`;
}

/** `waiting 42s for the API's rate limit before GET /vpcs`. */
export function paceText(event: PaceEvent): string {
  const wait = event.waitMs < 1000 ? `${Math.max(0, Math.round(event.waitMs))} ms` : formatDuration(event.waitMs);
  return `waiting ${wait} for the API's rate limit before ${event.method} ${event.path}`;
}
