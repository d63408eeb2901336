/**
 * One guardrail of the pack: a `@pulumi/policy` resource policy with what its reference page and
 * `--policy-pack-config` need (its settings, each with a JSON schema, a default and a meaning),
 * and a check that reads a resource of its kinds and files what it finds (`reading.ts`).
 */
import type { EnforcementLevel, ResourceValidationPolicy } from "@pulumi/policy";
import { Findings, subjectOf } from "./reading";

/** A setting of a policy: its JSON schema (for `--policy-pack-config`), default, and meaning. */
export interface Setting {
  schema: Record<string, unknown>;
  default: unknown;
  description: string;
}

export interface ComputePolicyDefinition<S extends Record<string, unknown>> {
  name: string;
  /** One line: what the policy requires. */
  description: string;
  /** What counts, for the reference page (`docs/reference/compute-guardrails.md`). */
  details: string;
  enforcementLevel: EnforcementLevel;
  /** The resource kinds it reads (through either door). */
  kinds: readonly string[];
  settings: { [K in keyof S]: Setting };
  check(findings: Findings, settings: S): void;
}

type Properties = NonNullable<ResourceValidationPolicy["configSchema"]>["properties"];

/** A policy of the pack, with what documents it. */
export type ComputePolicy = ResourceValidationPolicy & {
  details: string;
  kinds: readonly string[];
  settings: Record<string, Setting>;
};

export function definePolicy<S extends Record<string, unknown>>(definition: ComputePolicyDefinition<S>): ComputePolicy {
  const { name, description, details, enforcementLevel, kinds, settings, check } = definition;
  return {
    name,
    description,
    details,
    enforcementLevel,
    kinds,
    settings,
    configSchema: {
      properties: Object.fromEntries(
        Object.entries(settings).map(([key, s]) => [key, { ...s.schema, default: s.default, description: s.description }]),
      ) as Properties,
    },
    validateResource: (args, reportViolation) => {
      const subject = subjectOf(args, kinds);
      if (!subject) return;
      const findings = new Findings(subject);
      // The engine applies each setting's default before the policy reads it.
      check(findings, args.getConfig<S>());
      findings.report(reportViolation);
    },
  };
}

/** `22`, `22 and 3389`, `22, 3389 and 3306`. */
export function listed(items: ReadonlyArray<string | number>): string {
  const texts = items.map(String);
  return texts.length > 1 ? `${texts.slice(0, -1).join(", ")} and ${texts.at(-1)}` : (texts[0] ?? "");
}
