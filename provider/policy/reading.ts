/**
 * What a policy sees of a resource, and how it says what it found.
 *
 * `@pulumi/policy` hands a policy the resource's inputs (after the provider's `check`: the
 * program's names, camelCase) behind a proxy that throws when the policy touches a value unknown
 * during preview (an allow list built from a subnet that is not made yet), and the engine then
 * reports that the whole policy "can't run during preview". A guardrail should do better: check
 * what is known, and say which part it checks at `up`. So `known` copies the inputs once, each
 * unknown part replaced by `UNKNOWN_PART`, and `Findings` gathers what a policy found: a
 * violation per broken field, in the program's words, and the fields left for `up`.
 */
import * as policy from "@pulumi/policy";
import type { ReportViolation, ResourceValidationArgs } from "@pulumi/policy";
import { specForType } from "../serve/spec-lookup";
import type { AnySpec } from "../engine/spec";
import { UNKNOWN } from "../engine/values";

/** A part of the inputs not known during preview. */
export const UNKNOWN_PART: unique symbol = Symbol("unknown during preview");
export type Known<T> = T | typeof UNKNOWN_PART;

/**
 * What the policy's proxy throws at an unknown value, and what its server reports as "can't run
 * during preview". Exported by `@pulumi/policy` but left out of its type declarations.
 */
const { UnknownValueError } = policy as unknown as { UnknownValueError: new (sentinel: string, path: string[]) => Error };

const isUnknownError = (error: unknown): boolean => error instanceof UnknownValueError;

/** A plain copy of `value` read through the policy's proxy, every unknown part replaced by `UNKNOWN_PART`. */
export function known(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  const read = (key: string | number): unknown => {
    try {
      return known((value as Record<string | number, unknown>)[key]);
    } catch (error) {
      if (isUnknownError(error)) return UNKNOWN_PART;
      throw error;
    }
  };
  if (Array.isArray(value)) return Array.from({ length: value.length }, (_, i) => read(i));
  return Object.fromEntries(Object.keys(value).map((key) => [key, read(key)]));
}

/** The resource a policy is looking at: its kind, its name in the program, its inputs as `known` reads them. */
export interface Subject {
  kind: string;
  spec: AnySpec;
  name: string;
  /** The stack, from the URN (`urn:pulumi:<stack>::…`). */
  stack: string;
  inputs: Record<string, unknown>;
}

/** The subject of `args` when it is one of this package's resources of `kinds` (either door); undefined otherwise. */
export function subjectOf(args: ResourceValidationArgs, kinds: readonly string[]): Subject | undefined {
  const spec = specForType(args.type);
  if (!spec || !kinds.includes(spec.name)) return undefined;
  return {
    kind: spec.name,
    spec,
    name: args.name,
    stack: /^urn:pulumi:([^:]+)::/.exec(args.urn)?.[1] ?? "",
    inputs: known(args.props) as Record<string, unknown>,
  };
}

/** A path in the program's words: `inbound[0].addresses.ipv4[1]`. */
export function fieldPath(path: ReadonlyArray<string | number>): string {
  return path.map((part, i) => (typeof part === "number" ? `[${part}]` : i === 0 ? part : `.${part}`)).join("");
}

/** A value as a message shows it; a field the spec marks secret is never shown. */
export function shown(subject: Subject, path: ReadonlyArray<string | number>, value: unknown): string {
  const top = subject.spec.inputs[String(path[0])];
  if (top?.secret) return "(a secret value)";
  return typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? "not set");
}

/** An error the policy server reports as "can't run … during preview: <message>", an advisory, never a pass. */
class CheckedAtUp extends UnknownValueError {
  constructor(message: string) {
    super(UNKNOWN, []);
    this.message = message;
  }
}

/** What one policy found on one resource. */
export class Findings {
  private readonly violations: string[] = [];
  private readonly pending = new Set<string>();

  constructor(readonly subject: Subject) {}

  /** A broken field: `<Kind> "<name>": <text>`. */
  violation(text: string): void {
    this.violations.push(`${this.subject.kind} "${this.subject.name}": ${text}`);
  }

  /** A field whose value is unknown during preview, checked at `up`. */
  unknown(path: ReadonlyArray<string | number>): void {
    this.pending.add(fieldPath(path));
  }

  /** Reports every violation; then, when a part was unknown, says that it is checked at `up` (an advisory in preview). */
  report(reportViolation: ReportViolation): void {
    for (const text of this.violations) reportViolation(text);
    if (this.pending.size === 0) return;
    const fields = [...this.pending].join(", ");
    throw new CheckedAtUp(
      `${this.subject.kind} "${this.subject.name}": ${fields} ${this.pending.size === 1 ? "is" : "are"} known only once the resources ` +
        `${this.pending.size === 1 ? "it reads" : "they read"} are made; ${this.violations.length ? "the rest was checked" : "the rest passes"}, and this is checked at \`up\`, before the resource is created or changed`,
    );
  }
}
