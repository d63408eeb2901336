/**
 * What every area's life gets: the emulator (its control API seeds instances and moves the clock),
 * the seeded instances, a shape checker that collects mismatches instead of stopping at the first,
 * and `laterField`, the one way a step sends a field newer than API 4.174.
 */
import type { ComputeRecord, RunningEmulator } from "../../../../emulator";
import { shapeProblems, type Shape } from "../shape";
import { PAGE } from "../shapes";

export interface LifeContext {
  emu: RunningEmulator;
  /** Two instances in `region` with public IPv4 and SLAAC addresses; `a` may be given more IPv4. */
  computes: { a: ComputeRecord; b: ComputeRecord };
  region: string;
  /** A zone served by AXFR on loopback (for `importZone`), and the server's host. */
  zoneServer: { zone: string; host: string };
  /** Shape mismatches found so far, as `name.key: problem`. */
  mismatches: string[];
  /** Checks `value` against the client's declared type; returns it for chaining. */
  check<T>(name: string, value: T, shape: Shape<T>): T;
  /** Checks a page and each of its items. */
  checkPage<T>(name: string, page: { data: T[]; page: number; pages: number; results: number }, shape: Shape<T>): T[];
  /**
   * A step whose request carries a field newer than API 4.174 (`field`, `why`). The default
   * emulator ignores the field, as the API does; the strict one refuses it, and the life goes on:
   * nothing later depends on the step.
   */
  laterField(field: string, why: string, step: () => Promise<unknown>): Promise<void>;
  /** The `laterField` steps taken, for the strict run's expected refusals. */
  laterFields: Array<{ field: string; why: string }>;
  /** Moves emulated time forward. */
  advance(ms: number): void;
  /** Asks `read` until `done` holds, moving the clock a minute between asks. */
  until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T>;
}

export function lifeContext(emu: RunningEmulator, zoneServer: LifeContext["zoneServer"], strict: boolean): LifeContext {
  const region = "us-iad";
  const seed = (label: string) => emu.control.seedCompute({ label, region, configs: [], additional_ipv4: true });
  const mismatches: string[] = [];
  const laterFields: LifeContext["laterFields"] = [];
  const ctx: LifeContext = {
    emu,
    computes: { a: seed("api-v4-a"), b: seed("api-v4-b") },
    region,
    zoneServer,
    mismatches,
    check(name, value, shape) {
      for (const problem of shapeProblems(name, value, shape)) if (!mismatches.includes(problem)) mismatches.push(problem);
      return value;
    },
    checkPage(name, page, shape) {
      ctx.check(`${name} page`, page, PAGE);
      for (const item of page.data) ctx.check(`${name}[]`, item, shape);
      return page.data;
    },
    async laterField(field, why, step) {
      laterFields.push({ field, why });
      try {
        await step();
      } catch (error) {
        // Only the strict emulator may refuse it; the recorder has noted the refusal for the test.
        if (!strict) throw error;
      }
    },
    laterFields,
    advance(ms) {
      emu.control.setClock({ advanceMs: ms });
    },
    async until(what, read, done) {
      for (let i = 0; i < 200; i++) {
        const value = await read();
        if (done(value)) return value;
        ctx.advance(60_000);
      }
      throw new Error(`${what}: not reached after 200 emulated minutes`);
    },
  };
  return ctx;
}
