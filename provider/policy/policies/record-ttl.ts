/**
 * DNS TTLs within bounds: a `DomainRecord`'s and each `DomainRecordSet` record's `ttlSec`, and a
 * `Domain`'s default `ttlSec`, as the API records them (it rounds up to a value of its list). An
 * absent or 0 TTL is the domain's default, not checked on the record.
 */
import { definePolicy } from "../define";
import { UNKNOWN_PART, fieldPath, type Findings } from "../reading";
import { RESOURCE_SPECS } from "../../generated/spec-table";

interface Settings extends Record<string, unknown> {
  min: number;
  max: number;
}

type Normalize = ((value: unknown, recorded: Record<string, unknown>) => unknown) | undefined;

function checkTtl(findings: Findings, path: Array<string | number>, value: unknown, normalize: Normalize, settings: Settings): void {
  if (value === UNKNOWN_PART) return findings.unknown(path);
  if (typeof value !== "number" || value === 0) return;
  const recorded = (normalize ? normalize(value, {}) : value) as number;
  const as = recorded === value ? `${value}` : `${value} (the API records ${recorded})`;
  if (recorded < settings.min) findings.violation(`${fieldPath(path)} is ${as}, below the minimum of ${settings.min} seconds.`);
  else if (recorded > settings.max) findings.violation(`${fieldPath(path)} is ${as}, above the maximum of ${settings.max} seconds.`);
}

export const recordTtl = definePolicy<Settings>({
  name: "record-ttl",
  description: "DNS TTLs stay between min and max seconds.",
  details:
    "A `DomainRecord`'s or a `DomainRecordSet` record's `ttlSec`, or a `Domain`'s default `ttlSec`, below `min` or above `max` as the API records it (it rounds a TTL up to a value of its list: 30 is recorded as 300). An absent or 0 TTL is the domain's default and is not checked on the record.",
  enforcementLevel: "advisory",
  kinds: ["DomainRecord", "DomainRecordSet", "Domain"],
  settings: {
    min: { schema: { type: "integer", minimum: 0 }, default: 300, description: "The shortest TTL, in seconds." },
    max: { schema: { type: "integer", minimum: 0 }, default: 86400, description: "The longest TTL, in seconds." },
  },
  check(findings, settings) {
    const { kind, spec, inputs } = findings.subject;
    if (kind !== "DomainRecordSet") return checkTtl(findings, ["ttlSec"], inputs.ttlSec, spec.inputs.ttlSec?.normalize, settings);
    if (inputs.records === UNKNOWN_PART) return findings.unknown(["records"]);
    if (!Array.isArray(inputs.records)) return;
    // A record set's records carry a DomainRecord's fields, with the same spellings.
    const recordTtl = RESOURCE_SPECS.DomainRecord!.inputs.ttlSec?.normalize;
    inputs.records.forEach((record, i) => {
      if (record === UNKNOWN_PART) return findings.unknown(["records", i]);
      checkTtl(findings, ["records", i, "ttlSec"], (record as Record<string, unknown>).ttlSec, recordTtl, settings);
    });
  },
});
