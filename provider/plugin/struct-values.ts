/**
 * Property values between the engine's wire form (a `google.protobuf.Struct`) and the engine's
 * plain objects. The plugin declares no secret support, so the engine sends every value plain and
 * itself keeps secret whatever the program made secret (an output of the same name as a secret
 * input stays secret); what the plugin adds is secrecy the program did not ask for: the outputs a
 * spec marks `secret` (a database's root password), a secret data function's result, the token.
 * Configure is the one call that always brings secrets wrapped (`unwrapSecret`).
 */
import type { JavaScriptValue } from "google-protobuf/google/protobuf/struct_pb";
import { isRecord } from "../engine/values";

/** Pulumi's marker of a secret value in a struct: `{ [SIG_KEY]: SECRET_SIG, value }`. */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

export type Values = Record<string, unknown>;

/** A value wrapped as a secret. */
export const secret = (value: unknown): Values => ({ [SIG_KEY]: SECRET_SIG, value });

/** The value inside a secret wrapper, or the value itself. */
export const unwrapSecret = (value: unknown): unknown => (isRecord(value) && value[SIG_KEY] === SECRET_SIG ? value.value : value);

/** `values` with `undefined` left out at any depth (a struct has no such value) and the keys `secrets` names wrapped as secrets. */
export function structValues(values: Values, secrets: readonly string[] = []): Record<string, JavaScriptValue> {
  const out: Record<string, JavaScriptValue> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const plain = defined(value);
    out[key] = (secrets.includes(key) ? secret(plain) : plain) as JavaScriptValue;
  }
  return out;
}

function defined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : defined(v)));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (v === undefined ? [] : [[k, defined(v)]])));
  return value;
}
