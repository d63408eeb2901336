/**
 * Actions on an object (an instance's resize, boot, shutdown, reboot, rebuild): POSTs the sdk does
 * not repeat when their answer is lost, since they may have been applied. The engine finds out by
 * reading the object, in the loop creates use (`sendExactlyOnce` in `natural-key.ts`): an action
 * the object shows under way or done is waited for as if it had answered; one it does not show
 * did not land, and is sent once more. What still fails names the program's resource and the
 * input the action applies, and what to do next.
 */
import type { ProviderContext } from "./context";
import { MAX_CREATE_ATTEMPTS, describeFailure, isAmbiguous, sendExactlyOnce } from "./natural-key";
import { servedResource } from "./ports";
import type { AnySpec } from "./spec";

/** One action on an object, for `actExactlyOnce`. */
export interface Action {
  /** The input whose change the action applies: `type`. */
  field: string;
  /** The action in the program's words: `the resize to g6-standard-2`. */
  what: string;
  /** Sends the request. */
  send: () => Promise<unknown>;
  /** After a lost answer: whether the object shows the action under way or done (one read). */
  applied: () => Promise<boolean>;
}

/** A lost answer that could not be resolved: the message names the resource, the input and what to do. */
export class UnresolvedActionError extends Error {
  override name = "UnresolvedActionError";
}

/**
 * Sends `action` so that it is applied once: after an answer lost on the way (a reset, a timeout,
 * a 5xx: `isAmbiguous`) the object is read; under way or done, the action counts as answered, and
 * the caller waits for it as usual; not applied, it is sent again (at most `MAX_CREATE_ATTEMPTS`
 * sends). A refusal is thrown as it is, for the engine to explain. The extra read happens only
 * after a lost answer.
 */
export async function actExactlyOnce(ctx: ProviderContext, spec: Named, id: string | number, action: Action): Promise<void> {
  const who = named(spec, id);
  const what = `${action.what} (its ${action.field})`;
  const again = `run \`pulumi up\` again: it reads the ${spec.noun} first and sends only what is not yet applied`;
  try {
    await sendExactlyOnce(
      async () => {
        await action.send();
        return true;
      },
      async (failure) => {
        const cause = describeFailure(failure);
        let applied: boolean;
        try {
          applied = await action.applied();
        } catch (error) {
          throw new UnresolvedActionError(
            `${who}: ${what} got no answer (${cause}), and reading the ${spec.noun} to see whether it was applied failed ` +
              `(${describeFailure(error)}): ${again}`,
            { cause: error },
          );
        }
        if (applied) {
          ctx.progress(`${who}: ${action.what} got no answer (${cause}) but the ${spec.noun} shows it applied; waiting for it`);
          return true;
        }
        ctx.progress(`${who}: ${action.what} got no answer (${cause}) and the ${spec.noun} does not show it; sending it again`);
        return undefined;
      },
    );
  } catch (error) {
    if (!isAmbiguous(error)) throw error;
    throw new UnresolvedActionError(
      `${who}: ${what} got no answer ${MAX_CREATE_ATTEMPTS} times (the last: ${describeFailure(error)}), and whether the last one ` +
        `was applied is not known: ${again}`,
      { cause: error },
    );
  }
}

/** The kind an action's object is of, for messages: its spec's `name` and `noun`. */
type Named = Pick<AnySpec, "name" | "noun">;

/** `Instance "app-1"` while the engine serves that resource, else `instance 123`. */
function named(spec: Named, id: string | number): string {
  const resource = servedResource();
  return resource === undefined ? `${spec.noun} ${id}` : `${spec.name} ${JSON.stringify(resource)}`;
}
