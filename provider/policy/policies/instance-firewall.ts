/**
 * An instance reachable from the internet sits behind a firewall: an `Instance` with a `public`
 * interface (or no `interfaces`, which the API makes one `public` interface) names its firewall in
 * `firewallId`. Advisory: a firewall may also take the instance as a device (a `FirewallDevice`,
 * a `Firewall`'s `devices`), which a policy reading one resource cannot see.
 */
import { definePolicy } from "../define";
import { UNKNOWN_PART, type Findings } from "../reading";

/** Whether the interfaces make the instance public: `true`, `false`, or `undefined` when that is known only at `up`. */
function isPublic(findings: Findings, interfaces: unknown): boolean | undefined {
  if (interfaces === UNKNOWN_PART) {
    findings.unknown(["interfaces"]);
    return undefined;
  }
  if (!Array.isArray(interfaces)) return true; // absent: the API gives one public interface
  const purposes = interfaces.map((entry) =>
    entry === UNKNOWN_PART ? UNKNOWN_PART : (entry as Record<string, unknown> | undefined)?.purpose,
  );
  if (purposes.includes("public")) return true; // known public, whatever the other interfaces are
  purposes.forEach((purpose, i) => {
    if (purpose === UNKNOWN_PART) findings.unknown(interfaces[i] === UNKNOWN_PART ? ["interfaces", i] : ["interfaces", i, "purpose"]);
  });
  return purposes.includes(UNKNOWN_PART) ? undefined : false;
}

export const instanceFirewall = definePolicy<Record<string, never>>({
  name: "instance-firewall",
  description: "An instance with a public interface names its firewall (firewallId).",
  details:
    "An `Instance` with a `public` interface, or without `interfaces` (the API then gives it one `public` interface), and no `firewallId`. An instance reachable inside a VPC only passes. Advisory, since a firewall can also take the instance as a device (a `FirewallDevice`, or a `Firewall`'s `devices`), which this policy, reading the instance alone, cannot see.",
  enforcementLevel: "advisory",
  kinds: ["Instance"],
  settings: {},
  check(findings) {
    const { interfaces, firewallId } = findings.subject.inputs;
    if (firewallId !== undefined && firewallId !== null) return; // a firewall, or one made by this stack (unknown until up)
    if (isPublic(findings, interfaces) !== true) return;
    const how = Array.isArray(interfaces) ? "has a public interface" : "has no interfaces, so the API gives it a public one,";
    findings.violation(
      `${how} and no firewallId: every port it listens on is open to the internet. Set firewallId to a Firewall's id ` +
        `(a change replaces the instance), or attach one with a FirewallDevice.`,
    );
  },
});
