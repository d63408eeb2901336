/** No database allow list admits everyone: `MysqlDatabase`/`PostgresqlDatabase` `allowList`, and `DatabaseAllowListEntry`. */
import { definePolicy } from "../define";
import { admitsAll, everyoneSetting, networksOf } from "../networks";
import { UNKNOWN_PART, fieldPath, shown, type Findings } from "../reading";

interface Settings extends Record<string, unknown> {
  everyone: string[];
}

function checkSource(findings: Findings, path: Array<string | number>, source: unknown, settings: Settings): void {
  if (source === UNKNOWN_PART) return findings.unknown(path);
  if (typeof source !== "string" || !admitsAll(source, networksOf(settings.everyone, "database-exposure.everyone"))) return;
  findings.violation(
    `${fieldPath(path)} is ${shown(findings.subject, path, source)}, which admits everyone. List the addresses and networks that connect.`,
  );
}

export const databaseExposure = definePolicy<Settings>({
  name: "database-exposure",
  description: "No database allow list admits everyone.",
  details:
    "An entry of a `MysqlDatabase`'s or `PostgresqlDatabase`'s `allowList`, or a `DatabaseAllowListEntry`'s `address`, that contains one of `everyone`'s networks, in any spelling the API accepts. A bare address is one address (`0.0.0.0` is not everyone).",
  enforcementLevel: "mandatory",
  kinds: ["MysqlDatabase", "PostgresqlDatabase", "DatabaseAllowListEntry"],
  settings: {
    everyone: everyoneSetting("an entry"),
  },
  check(findings, settings) {
    const { kind, inputs } = findings.subject;
    if (kind === "DatabaseAllowListEntry") return checkSource(findings, ["address"], inputs.address, settings);
    if (inputs.allowList === UNKNOWN_PART) return findings.unknown(["allowList"]);
    if (Array.isArray(inputs.allowList)) inputs.allowList.forEach((entry, i) => checkSource(findings, ["allowList", i], entry, settings));
  },
});
