/**
 * Every connection to a database is encrypted: `sslConnection` is not `false`, and not absent,
 * since the API records an absent value as `false` (for both engines).
 */
import { definePolicy } from "../define";
import { UNKNOWN_PART } from "../reading";

export const databaseTransport = definePolicy<Record<string, never>>({
  name: "database-transport",
  description: "Databases require TLS: sslConnection is true.",
  details:
    "A `MysqlDatabase` or `PostgresqlDatabase` whose `sslConnection` is `false`, or absent: the API records an absent value as `false`, for both engines.",
  enforcementLevel: "mandatory",
  kinds: ["MysqlDatabase", "PostgresqlDatabase"],
  settings: {},
  check(findings) {
    const { sslConnection } = findings.subject.inputs;
    if (sslConnection === UNKNOWN_PART) return findings.unknown(["sslConnection"]);
    if (sslConnection === true) return;
    const what = sslConnection === undefined ? "sslConnection is not set, and the API records that as false" : "sslConnection is false";
    findings.violation(`${what}: clients may connect without TLS. Set sslConnection: true (a change replaces the database).`);
  },
});
