/** Databases of the stacks the settings name (`prod*`) have at least `minClusterSize` nodes. */
import { definePolicy } from "../define";
import { UNKNOWN_PART } from "../reading";

interface Settings extends Record<string, unknown> {
  stacks: string[];
  minClusterSize: number;
}

/** `prod*` → a whole-name match with `*` for any text. */
const globMatches = (glob: string, name: string): boolean =>
  new RegExp(
    `^${glob
      .split("*")
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*")}$`,
  ).test(name);

export const databaseAvailability = definePolicy<Settings>({
  name: "database-availability",
  description: "Databases of production stacks run as clusters of at least minClusterSize nodes.",
  details:
    "A `MysqlDatabase` or `PostgresqlDatabase` of a stack whose name matches one of `stacks` (from the resource's URN) with fewer than `minClusterSize` nodes; an absent `clusterSize` is the API's 1.",
  enforcementLevel: "mandatory",
  kinds: ["MysqlDatabase", "PostgresqlDatabase"],
  settings: {
    stacks: {
      schema: { type: "array", items: { type: "string" } },
      default: ["prod*", "production*"],
      description: "The stacks it applies to, by name; `*` stands for any text.",
    },
    minClusterSize: {
      schema: { type: "integer", minimum: 1 },
      default: 3,
      description: "The fewest nodes a database of those stacks may have (the API offers 1 and 3).",
    },
  },
  check(findings, { stacks, minClusterSize }) {
    const { stack, spec, inputs } = findings.subject;
    const matched = stacks.find((glob) => globMatches(glob, stack));
    if (!matched) return;
    if (inputs.clusterSize === UNKNOWN_PART) return findings.unknown(["clusterSize"]);
    const size = (inputs.clusterSize ?? spec.inputs.clusterSize?.default) as number;
    if (size >= minClusterSize) return;
    const what =
      inputs.clusterSize === undefined
        ? `clusterSize is not set (the API makes ${size} node${size === 1 ? "" : "s"})`
        : `clusterSize is ${size}`;
    findings.violation(
      `${what} in stack "${stack}", which needs at least ${minClusterSize} (it matches "${matched}"). ` +
        `Set clusterSize: ${minClusterSize} (a change replaces the database).`,
    );
  },
});
