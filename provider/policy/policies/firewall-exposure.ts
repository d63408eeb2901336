/**
 * No inbound firewall rule accepts an administrative port from everyone: a `Firewall`'s `inbound`
 * rules and its `inboundPolicy`, and an inbound `FirewallRule`. A rule without `ports`, or of a
 * protocol without ports (ICMP, IPENCAP), covers every port.
 */
import { definePolicy, listed } from "../define";
import { admitsAll, everyoneSetting, coveredPorts, networksOf, portsOf } from "../networks";
import { UNKNOWN_PART, fieldPath, shown, type Findings } from "../reading";

interface Settings extends Record<string, unknown> {
  ports: number[];
  everyone: string[];
}

type Path = Array<string | number>;

/** What a rule accepts, for the message: `TCP ports "22, 443"`, `TCP on every port (no ports)`, `ICMP, a protocol without ports (so every port),`. */
function accepts(protocol: unknown, ports: unknown, covered: ReturnType<typeof portsOf>): string {
  if (covered !== "all") return `${String(protocol)} ports ${JSON.stringify(ports)}`;
  return portsOf(protocol, "1") === "all"
    ? `${String(protocol)}, a protocol without ports (so every port),`
    : `${String(protocol)} on every port (no ports)`;
}

/** Checks one rule at `path` (`[]` for a FirewallRule, `["inbound", i]` in a Firewall). */
function checkRule(findings: Findings, path: Path, rule: unknown, settings: Settings): void {
  if (rule === UNKNOWN_PART) return findings.unknown(path);
  const { action, protocol, ports, addresses, label } = (rule ?? {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries({ action, protocol, ports }))
    if (value === UNKNOWN_PART) return findings.unknown([...path, key]);
  if (action !== "ACCEPT") return;
  const covered = portsOf(protocol, ports);
  const exposed = coveredPorts(covered, settings.ports);
  if (exposed.length === 0) return;
  if (addresses === UNKNOWN_PART) return findings.unknown([...path, "addresses"]);
  const everyone = networksOf(settings.everyone, "firewall-exposure.everyone");
  const open: string[] = [];
  for (const family of ["ipv4", "ipv6"] as const) {
    const list = (addresses as Record<string, unknown> | undefined)?.[family];
    if (list === UNKNOWN_PART) findings.unknown([...path, "addresses", family]);
    if (!Array.isArray(list)) continue;
    list.forEach((source, i) => {
      const at = [...path, "addresses", family, i];
      if (source === UNKNOWN_PART) findings.unknown(at);
      else if (typeof source === "string" && admitsAll(source, everyone))
        open.push(`addresses.${family}[${i}] is ${shown(findings.subject, at, source)}`);
    });
  }
  if (open.length === 0) return;
  const where = path.length ? `${fieldPath(path)}${typeof label === "string" ? ` (${JSON.stringify(label)})` : ""} accepts` : "accepts";
  findings.violation(
    `${where} ${accepts(protocol, ports, covered)} from everyone: ${open.join(", ")}. ` +
      `That opens ${exposed.length === 1 ? "port" : "ports"} ${listed(exposed)} to everyone; accept ${exposed.length === 1 ? "it" : "them"} only from the networks that need ${exposed.length === 1 ? "it" : "them"}.`,
  );
}

export const firewallExposure = definePolicy<Settings>({
  name: "firewall-exposure",
  description: "No inbound firewall rule accepts an administrative port from everyone.",
  details:
    "An inbound rule that ACCEPTs traffic from a source containing one of `everyone`'s networks (`0.0.0.0/0`, `::/0`, in any spelling the API accepts: `0:0:0:0:0:0:0:0/0`, `1.2.3.4/0`), on ports that include one of `ports`. A rule without `ports`, and a rule of a protocol without ports (ICMP, IPENCAP), covers every port. It reads a `Firewall`'s `inbound` rules and its `inboundPolicy` (`ACCEPT` lets everything no rule matches in, from everyone), and an inbound `FirewallRule`.",
  enforcementLevel: "mandatory",
  kinds: ["Firewall", "FirewallRule"],
  settings: {
    ports: {
      schema: { type: "array", items: { type: "integer", minimum: 1, maximum: 65535 } },
      default: [22, 3389, 3306, 5432],
      description: "The administrative ports: SSH, RDP, MySQL and PostgreSQL by default.",
    },
    everyone: everyoneSetting("a source"),
  },
  check(findings, settings) {
    const { kind, inputs } = findings.subject;
    if (kind === "FirewallRule") {
      if (inputs.direction === UNKNOWN_PART) return findings.unknown(["direction"]);
      if (inputs.direction === "inbound") checkRule(findings, [], inputs, settings);
      return;
    }
    if (inputs.inboundPolicy === UNKNOWN_PART) findings.unknown(["inboundPolicy"]);
    else if (inputs.inboundPolicy === "ACCEPT") {
      findings.violation(
        `inboundPolicy is "ACCEPT": traffic that no inbound rule matches is accepted from everyone on every port, ` +
          `${listed(settings.ports)} included. Use "DROP" and accept what is needed with rules.`,
      );
    }
    if (inputs.inbound === UNKNOWN_PART) return findings.unknown(["inbound"]);
    if (Array.isArray(inputs.inbound)) inputs.inbound.forEach((rule, i) => checkRule(findings, ["inbound", i], rule, settings));
  },
});
