/**
 * The engine's errors: API refusals and failures in the program's words (`explain`: the input a
 * wire field belongs to, the scope or grant a refusal lacks), and the errors a lifecycle hook throws
 * for the engine to record (`ResourceInitError`, `PartialApplyError`, `GaveUpWaiting`).
 */
import { ApiError } from "../../sdk/core/errors";
import { CONFIG_TOKEN } from "./context";
import { programNames, programText, wirePath } from "./field-names";
import { leastScopes, scopeRefusal } from "./oauth-scopes";
import { servedResource } from "./ports";
import type { AnySpec, ApiObject, Outputs } from "./spec";
import { toCamel } from "./values";

/**
 * A hook that waited for the API to accept something until the deadline passed: its message is
 * the API's last refusal, which the deadline's error repeats so the person knows what it waited on.
 */
export class GaveUpWaiting extends Error {
  override name = "GaveUpWaiting";
}

/**
 * A failure after the API accepted a create. Pulumi's dynamic provider host turns an error with an
 * `id` into ErrorResourceInitFailed: the engine keeps the object in state with this error instead
 * of forgetting it, and the next `up` retries by updating it.
 */
export class ResourceInitError extends Error {
  override name = "ResourceInitError";
  constructor(
    message: string,
    readonly id: string,
    readonly properties: Outputs,
    readonly reasons: string[] = [message],
  ) {
    super(message);
  }
}

/**
 * Thrown by a hook that applies many changes (a record set's records) when some of them failed:
 * `record` is the object as the changes that did succeed left it. The engine records exactly that
 * in state (as a `ResourceInitError`, which Pulumi keeps with the error on create and on update),
 * so nothing applied is forgotten and the next `up` applies only what is left.
 */
export class PartialApplyError extends Error {
  override name = "PartialApplyError";
  constructor(
    message: string,
    readonly record: ApiObject,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * A refusal for want of an OAuth scope (401 with the API's scope headers): the scopes the endpoint
 * accepts (`X-Accepted-OAuth-Scopes`), the token's own (`X-OAuth-Scopes`), and what to do. Other
 * refusals (an invalid token, a restricted user's grant) keep the API's words.
 */
/** A 401 for want of a scope: for a write, the scopes this resource's life needs name what to get. */
function missingScope(spec: AnySpec, op: string, error: ApiError): string | undefined {
  if (!WRITE_OPS.has(op)) return scopeRefusal(error);
  const scopes = leastScopes([...spec.endpoints.read, ...spec.endpoints.write]);
  return scopeRefusal(error, { scopes, what: `this ${spec.noun} needs for up and destroy` });
}

/** `a VPC`, `an image`, `an IPv6 range`. */
const withArticle = (noun: string): string => `${/^[aeiouAEIOU]/.test(noun) ? "an" : "a"} ${noun}`;

/** Operations of `up` and `destroy` that write. */
const WRITE_OPS = new Set(["create", "update", "delete"]);

/**
 * A 403: the token's user is restricted and lacks a grant. The API does not say which; what the
 * operation needs is known: the account-wide grant to add one (a create), or read_write on the
 * object itself (an update or a delete).
 */
function missingGrant(spec: AnySpec, op: string, error: ApiError): string | undefined {
  if (error.status !== 403) return undefined;
  const grant = op === "create" ? `the account's grant to add ${withArticle(spec.noun)}` : `read_write access to this ${spec.noun}`;
  return (
    `the token's user may not do this (${error.errors.map((e) => e.reason).join("; ") || "forbidden"}). ` +
    `A restricted user needs ${grant}: an account administrator grants it in the user's permissions, ` +
    `or give the stack a token of a user who has it: \`pulumi config set --secret ${CONFIG_TOKEN} <token>\``
  );
}

/** Rewrites an API error so it names the program's input (`engineId`), not the wire field (`engine`). */
export function explain(spec: AnySpec, op: string, error: unknown): Error {
  if (!(error instanceof ApiError)) return error instanceof Error ? error : new Error(String(error));
  const resource = servedResource();
  const what = `the ${spec.noun} ${op}${resource === undefined ? "" : ` of resource ${JSON.stringify(resource)}`}`;
  const refusal = missingScope(spec, op, error) ?? missingGrant(spec, op, error);
  if (refusal)
    return new Error(`the API refused ${what}: ${refusal} (HTTP ${error.status} ${error.method} ${error.path})`, { cause: error });
  const names = programNames(spec);
  const details = error.errors.map((e) => {
    const reason = programText(names, e.reason);
    return e.field ? `${programText(names, inputName(spec, e.field))}: ${reason}` : reason;
  });
  const message = `the API refused the ${spec.noun} ${op}: ${details.join("; ") || "no details"} (HTTP ${error.status} ${error.method} ${error.path})`;
  return new Error(message, { cause: error });
}

/**
 * An update the API answers 404: the object was deleted outside the stack since its state was last
 * read. Pulumi updates what its state holds until a refresh tells it otherwise, so the message names
 * the program's resource and the two commands that put it right.
 */
export function goneOnUpdate(spec: AnySpec, id: string, error: ApiError): Error {
  const resource = servedResource();
  const which = resource === undefined ? `the ${spec.noun} ${id}` : `the ${spec.noun} of resource ${JSON.stringify(resource)} (id ${id})`;
  return new Error(
    `${which} no longer exists in the account (deleted outside this stack since its state was read), so it cannot be updated: ` +
      `run \`pulumi up --refresh\` to create it again with the program's values, or \`pulumi refresh\` to drop it from the stack's state ` +
      `(HTTP ${error.status} ${error.method} ${error.path})`,
    { cause: error },
  );
}

/**
 * The input a wire field belongs to, with the rest of the path: `ttl_sec` → `ttlSec`,
 * `rules.inbound[0].ports` → `inbound[0].ports`, `engine` → `engineId`.
 */
export function inputName(spec: AnySpec, wireField: string): string {
  for (const [key, field] of Object.entries(spec.inputs)) {
    const wire = wirePath(key, field);
    const rest = wireField.slice(wire.length);
    if (wireField.startsWith(wire) && (rest === "" || rest.startsWith(".") || rest.startsWith("["))) return key + rest;
  }
  const [head = "", ...rest] = wireField.split(/(?=[.[])/);
  return toCamel(head) + rest.join("");
}
