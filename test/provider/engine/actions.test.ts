/**
 * The engine's rules for an action whose answer is lost (`actExactlyOnce`), on scripted outcomes
 * (no HTTP: one decision per outcome of the action and of the read after it). The instance's
 * actions run against the emulator's faults in `test/provider/resources/instance.test.ts` and
 * through the real engine in `test/e2e/instance-lost-answer.e2e.test.ts`.
 */
import { ApiError, ConnectionError } from "../../../sdk/core/errors";
import { UnresolvedActionError, actExactlyOnce } from "../../../provider/engine/actions";
import type { ProviderContext } from "../../../provider/engine/context";

const POST = { method: "POST", path: "/things/7/resize" };
const GET = { method: "GET", path: "/things/7" };
const reset = () => new ConnectionError(POST, "ECONNRESET", true);
const THING = { name: "Thing", noun: "thing" };

/** Runs a resize whose sends and reads answer as scripted: the sends and reads made, and the progress lines. */
async function resize(sends: Array<() => Promise<unknown>>, reads: Array<() => Promise<boolean>>) {
  const lines: string[] = [];
  const made = { sends: 0, reads: 0 };
  const ctx = { progress: (line: string) => lines.push(line) } as unknown as ProviderContext;
  const run = actExactlyOnce(ctx, THING, 7, {
    field: "type",
    what: "the resize to big",
    send: () => sends[made.sends++]!(),
    applied: () => reads[made.reads++]!(),
  });
  const outcome = await run.then(
    () => undefined,
    (error: unknown) => error as Error,
  );
  return { error: outcome, lines, ...made };
}

test("answered: no read; lost and shown applied: not sent again; lost and not shown: sent once more", async () => {
  expect(await resize([async () => undefined], [])).toEqual({ error: undefined, lines: [], sends: 1, reads: 0 });
  expect(await resize([() => Promise.reject(reset())], [async () => true])).toEqual({
    error: undefined,
    lines: ["thing 7: the resize to big got no answer (connection failed (ECONNRESET)) but the thing shows it applied; waiting for it"],
    sends: 1,
    reads: 1,
  });
  expect(await resize([() => Promise.reject(reset()), async () => undefined], [async () => false])).toMatchObject({
    error: undefined,
    lines: ["thing 7: the resize to big got no answer (connection failed (ECONNRESET)) and the thing does not show it; sending it again"],
    sends: 2,
    reads: 1,
  });
});

test("a refusal is thrown as it is, for the engine to explain; a read that fails names the action, its input and what to do", async () => {
  const refusal = ApiError.from(400, [{ field: "type", reason: "Linode is busy." }], POST);
  expect(await resize([() => Promise.reject(refusal)], [])).toMatchObject({ error: refusal, sends: 1, reads: 0 });
  const unread = await resize([() => Promise.reject(reset())], [() => Promise.reject(ApiError.from(500, [{ reason: "Internal" }], GET))]);
  expect(unread.error).toBeInstanceOf(UnresolvedActionError);
  expect(unread.error?.message).toBe(
    "thing 7: the resize to big (its type) got no answer (connection failed (ECONNRESET)), and reading the thing to see whether it " +
      "was applied failed (HTTP 500: Internal): run `pulumi up` again: it reads the thing first and sends only what is not yet applied",
  );
});
