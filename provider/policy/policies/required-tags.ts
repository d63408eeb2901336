/** The tags a team requires, on the kinds that carry tags (those whose spec has a `tags` input). */
import { RESOURCE_SPECS } from "../../generated/spec-table";
import { definePolicy, listed } from "../define";
import { UNKNOWN_PART } from "../reading";

interface Settings extends Record<string, unknown> {
  tags: string[];
  kinds: string[];
}

/** Every kind whose spec takes `tags`. */
export const TAGGED_KINDS = Object.values(RESOURCE_SPECS)
  .filter((spec) => "tags" in spec.inputs)
  .map((spec) => spec.name)
  .sort();

export const requiredTags = definePolicy<Settings>({
  name: "required-tags",
  description: "Resources that carry tags carry the tags the settings require.",
  details:
    "A resource of `kinds` (the kinds whose spec takes `tags`) whose `tags` lack one of `tags`. Nothing is required until the settings name tags.",
  enforcementLevel: "mandatory",
  kinds: TAGGED_KINDS,
  settings: {
    tags: {
      schema: { type: "array", items: { type: "string" } },
      default: [],
      description: "The tags every such resource must carry (none by default).",
    },
    kinds: {
      schema: { type: "array", items: { type: "string", enum: TAGGED_KINDS } },
      default: TAGGED_KINDS,
      description: `The kinds it applies to: ${listed(TAGGED_KINDS)} by default.`,
    },
  },
  check(findings, { tags, kinds }) {
    const { kind, inputs } = findings.subject;
    if (tags.length === 0 || !kinds.includes(kind)) return;
    if (inputs.tags === UNKNOWN_PART) return findings.unknown(["tags"]);
    const carried = Array.isArray(inputs.tags) ? inputs.tags : [];
    if (carried.includes(UNKNOWN_PART)) return findings.unknown(["tags"]);
    const missing = tags.filter((tag) => !carried.includes(tag));
    if (missing.length === 0) return;
    findings.violation(
      `tags ${carried.length ? JSON.stringify(carried) : "(none)"} lack ${listed(missing.map((t) => JSON.stringify(t)))}, which the settings require. Add ${missing.length === 1 ? "it" : "them"} to tags.`,
    );
  },
});
