/**
 * The compute-guardrails policies on the inputs `@pulumi/policy` hands them (its unknown-checking
 * proxy over the checked inputs, its config with each setting's default): every spelling of
 * "everyone" the API accepts is caught, narrower sources pass, missing ports and protocols
 * without ports mean every port, unknown parts are left for `up` while known ones are checked,
 * and a secret is never shown. The engine runs the same policies in `test/e2e/policy.e2e.test.ts`.
 */
import { unknownCheckingProxy, type ResourceValidationArgs } from "@pulumi/policy";
import { COMPUTE_POLICIES, type ComputePolicy } from "../../../provider/policy";
import { dynamicType, packageType } from "../../../provider/engine/type-tokens";
import { UNKNOWN } from "../../../provider/engine/values";

const policy = (name: string): ComputePolicy => COMPUTE_POLICIES.find((p) => p.name === name)!;

/** What a policy says of one resource: its violations, and what it leaves for `up` (the server's "can't run during preview"). */
function validate(
  name: string,
  kind: string,
  props: Record<string, unknown>,
  options: { config?: Record<string, unknown>; stack?: string; type?: string } = {},
): { violations: string[]; atUp?: string } {
  const p = policy(name);
  const defaults = Object.fromEntries(Object.entries(p.settings).map(([key, s]) => [key, s.default]));
  const type = options.type ?? dynamicType(kind);
  const args = {
    type,
    name: "it",
    urn: `urn:pulumi:${options.stack ?? "dev"}::proj::${type}::it`,
    props: unknownCheckingProxy(props),
    getConfig: () => ({ ...defaults, ...options.config }),
  } as unknown as ResourceValidationArgs;
  const violations: string[] = [];
  try {
    void (p.validateResource as (a: ResourceValidationArgs, r: (m: string) => void) => void)(args, (m) => violations.push(m));
    return { violations };
  } catch (error) {
    if ((error as Error).constructor.name !== "CheckedAtUp") throw error;
    return { violations, atUp: (error as Error).message };
  }
}

const rule = (addresses: Record<string, string[]>, extra: Record<string, unknown> = {}) => ({
  label: "r",
  action: "ACCEPT",
  protocol: "TCP",
  ports: "22",
  addresses,
  ...extra,
});
const firewall = (inbound: unknown[], inboundPolicy = "DROP") => ({ label: "fw", inboundPolicy, outboundPolicy: "ACCEPT", inbound });

const EVERYONE_V4 = ["0.0.0.0/0", "1.2.3.4/0", "255.255.255.255/0"];
const EVERYONE_V6 = [
  "::/0",
  "::0/0",
  "0::0/0",
  "0:0:0:0:0:0:0:0/0",
  "0000:0000:0000:0000:0000:0000:0000:0000/0",
  "2001:DB8::/0",
  "::ffff:0.0.0.0/0",
];
const NARROWER = { ipv4: ["203.0.113.0/24", "0.0.0.0/1", "0.0.0.0/32"], ipv6: ["::/1", "2001:db8::/32"] };

describe("firewall-exposure", () => {
  test.each([...EVERYONE_V4.map((a) => ["ipv4", a]), ...EVERYONE_V6.map((a) => ["ipv6", a])])(
    "%s %s from everyone is caught",
    (family, address) => {
      const { violations } = validate("firewall-exposure", "Firewall", firewall([rule({ [family]: [address] })]));
      expect(violations).toEqual([
        `Firewall "it": inbound[0] ("r") accepts TCP ports "22" from everyone: addresses.${family}[0] is ${JSON.stringify(address)}. ` +
          "That opens port 22 to everyone; accept it only from the networks that need it.",
      ]);
    },
  );

  test("narrower sources pass, as do ports that are not administrative and DROP rules", () => {
    expect(validate("firewall-exposure", "Firewall", firewall([rule(NARROWER)])).violations).toEqual([]);
    expect(validate("firewall-exposure", "Firewall", firewall([rule({ ipv4: ["0.0.0.0/0"] }, { ports: "80, 443" })])).violations).toEqual(
      [],
    );
    expect(validate("firewall-exposure", "Firewall", firewall([rule({ ipv4: ["0.0.0.0/0"] }, { action: "DROP" })])).violations).toEqual([]);
  });

  test("missing ports, a range over an administrative port, and protocols without ports mean every port", () => {
    const open = { ipv4: ["0.0.0.0/0"] };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ports: undefined }, "TCP on every port (no ports)"],
      [{ ports: "20-23, 80" }, 'TCP ports "20-23, 80"'],
      [{ protocol: "ICMP", ports: undefined }, "ICMP, a protocol without ports (so every port),"],
      [{ protocol: "IPENCAP", ports: undefined }, "IPENCAP, a protocol without ports (so every port),"],
    ];
    for (const [extra, accepts] of cases) {
      const [violation] = validate("firewall-exposure", "Firewall", firewall([rule(open, extra)])).violations;
      expect(violation).toContain(`accepts ${accepts} from everyone`);
    }
    const [all] = validate("firewall-exposure", "Firewall", firewall([rule(open, { ports: undefined })])).violations;
    expect(all).toContain("That opens ports 22, 3389, 3306 and 5432 to everyone");
  });

  test("an ACCEPT inbound policy, and an inbound FirewallRule; settings name other ports and networks", () => {
    expect(validate("firewall-exposure", "Firewall", firewall([], "ACCEPT")).violations).toEqual([
      'Firewall "it": inboundPolicy is "ACCEPT": traffic that no inbound rule matches is accepted from everyone on every port, 22, 3389, 3306 and 5432 included. Use "DROP" and accept what is needed with rules.',
    ]);
    const ruleProps = { firewallId: "7", direction: "inbound", ...rule({ ipv6: ["::/0"] }, { ports: "3389" }) };
    expect(validate("firewall-exposure", "FirewallRule", ruleProps).violations).toEqual([
      'FirewallRule "it": accepts TCP ports "3389" from everyone: addresses.ipv6[0] is "::/0". That opens port 3389 to everyone; accept it only from the networks that need it.',
    ]);
    expect(validate("firewall-exposure", "FirewallRule", { ...ruleProps, direction: "outbound" }).violations).toEqual([]);
    const config = { ports: [8443], everyone: ["10.0.0.0/8"] };
    expect(
      validate("firewall-exposure", "Firewall", firewall([rule({ ipv4: ["10.0.0.0/8"] }, { ports: "8443" })]), { config }).violations,
    ).toHaveLength(1);
    expect(
      validate("firewall-exposure", "Firewall", firewall([rule({ ipv4: ["10.1.0.0/16"] }, { ports: "8443" })]), { config }).violations,
    ).toEqual([]);
  });

  test("through the provider plugin's door too (compute:index:Firewall); another package's type is not its business", () => {
    const props = firewall([rule({ ipv4: ["0.0.0.0/0"] })]);
    expect(validate("firewall-exposure", "Firewall", props, { type: packageType("Firewall") }).violations).toHaveLength(1);
    expect(validate("firewall-exposure", "Firewall", props, { type: "aws:ec2/securityGroup:SecurityGroup" }).violations).toEqual([]);
  });

  test("an unknown source is checked at up; the known ones are checked now", () => {
    const { violations, atUp } = validate("firewall-exposure", "Firewall", firewall([rule({ ipv4: ["0.0.0.0/0", UNKNOWN] })]));
    expect(violations).toHaveLength(1);
    expect(atUp).toBe(
      'Firewall "it": inbound[0].addresses.ipv4[1] is known only once the resources it reads are made; the rest was checked, and this is checked at `up`, before the resource is created or changed',
    );
  });
});

describe("database-exposure", () => {
  test.each([...EVERYONE_V4, ...EVERYONE_V6])("%s in an allow list or an allow-list entry is caught", (address) => {
    expect(validate("database-exposure", "MysqlDatabase", { allowList: ["203.0.113.0/24", address] }).violations).toEqual([
      `MysqlDatabase "it": allowList[1] is ${JSON.stringify(address)}, which admits everyone. List the addresses and networks that connect.`,
    ]);
    expect(
      validate("database-exposure", "DatabaseAllowListEntry", { engine: "postgresql", databaseId: "1", address }).violations,
    ).toHaveLength(1);
  });

  test("narrower entries pass; an absent list is not this resource's", () => {
    expect(
      validate("database-exposure", "PostgresqlDatabase", { allowList: [...NARROWER.ipv4, ...NARROWER.ipv6, "0.0.0.0"] }).violations,
    ).toEqual([]);
    expect(validate("database-exposure", "PostgresqlDatabase", {}).violations).toEqual([]);
  });
});

describe("database-transport", () => {
  test("false and absent fail (the API records absent as false); true passes; unknown is checked at up", () => {
    expect(validate("database-transport", "MysqlDatabase", { sslConnection: false }).violations).toEqual([
      'MysqlDatabase "it": sslConnection is false: clients may connect without TLS. Set sslConnection: true (a change replaces the database).',
    ]);
    expect(validate("database-transport", "PostgresqlDatabase", {}).violations[0]).toContain(
      "sslConnection is not set, and the API records that as false",
    );
    expect(validate("database-transport", "MysqlDatabase", { sslConnection: true }).violations).toEqual([]);
    expect(validate("database-transport", "MysqlDatabase", { sslConnection: "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7" }).atUp).toContain(
      "sslConnection is known only",
    );
  });
});

describe("database-availability", () => {
  test("in the stacks the settings name, clusterSize at least the minimum; the API's 1 when absent", () => {
    expect(validate("database-availability", "MysqlDatabase", {}, { stack: "prod-eu" }).violations).toEqual([
      'MysqlDatabase "it": clusterSize is not set (the API makes 1 node) in stack "prod-eu", which needs at least 3 (it matches "prod*"). Set clusterSize: 3 (a change replaces the database).',
    ]);
    expect(validate("database-availability", "MysqlDatabase", { clusterSize: 3 }, { stack: "prod-eu" }).violations).toEqual([]);
    expect(validate("database-availability", "MysqlDatabase", { clusterSize: 1 }, { stack: "dev" }).violations).toEqual([]);
    expect(
      validate("database-availability", "PostgresqlDatabase", { clusterSize: 1 }, { stack: "live", config: { stacks: ["live"] } })
        .violations,
    ).toHaveLength(1);
  });
});

describe("record-ttl", () => {
  test("records, record sets and domains, as the API rounds them; 0 is the domain's default", () => {
    // 30 is what the program says; the API records 300, which is within bounds.
    expect(validate("record-ttl", "DomainRecord", { ttlSec: 30 }).violations).toEqual([]);
    expect(validate("record-ttl", "DomainRecord", { ttlSec: 30 }, { config: { min: 3600 } }).violations).toEqual([
      'DomainRecord "it": ttlSec is 30 (the API records 300), below the minimum of 3600 seconds.',
    ]);
    expect(validate("record-ttl", "DomainRecord", { ttlSec: 0 }).violations).toEqual([]);
    expect(validate("record-ttl", "DomainRecord", { ttlSec: 300 }).violations).toEqual([]);
    expect(validate("record-ttl", "DomainRecord", { ttlSec: 604800 }).violations).toEqual([
      'DomainRecord "it": ttlSec is 604800, above the maximum of 86400 seconds.',
    ]);
    expect(validate("record-ttl", "DomainRecordSet", { records: [{ ttlSec: 300 }, { ttlSec: 1209600 }] }).violations).toEqual([
      'DomainRecordSet "it": records[1].ttlSec is 1209600, above the maximum of 86400 seconds.',
    ]);
    expect(validate("record-ttl", "Domain", { ttlSec: 3600 }, { config: { min: 7200 } }).violations).toEqual([
      'Domain "it": ttlSec is 3600, below the minimum of 7200 seconds.',
    ]);
  });
});

describe("required-tags", () => {
  test("nothing is required by default; the tags the settings name, on the kinds that carry tags", () => {
    expect(policy("required-tags").kinds).toEqual(["Domain", "Firewall", "Instance"]);
    expect(validate("required-tags", "Domain", {}).violations).toEqual([]);
    const config = { tags: ["team", "env"] };
    expect(validate("required-tags", "Domain", { tags: ["team"] }, { config }).violations).toEqual([
      'Domain "it": tags ["team"] lack "env", which the settings require. Add it to tags.',
    ]);
    expect(validate("required-tags", "Firewall", { tags: ["env", "team"] }, { config }).violations).toEqual([]);
    expect(validate("required-tags", "Firewall", {}, { config: { ...config, kinds: ["Domain"] } }).violations).toEqual([]);
  });
});

describe("instance-firewall", () => {
  test("a public interface, or none (the API gives one), without firewallId is reported; a firewall or a VPC-only instance passes", () => {
    const vpcOnly = [{ purpose: "vpc", subnetId: "11" }];
    const both = [{ purpose: "public" }, { purpose: "vpc", subnetId: "11" }];
    expect(validate("instance-firewall", "Instance", { label: "web", interfaces: both }).violations).toEqual([
      'Instance "it": has a public interface and no firewallId: every port it listens on is open to the internet. Set firewallId to a Firewall\'s id (a change replaces the instance), or attach one with a FirewallDevice.',
    ]);
    expect(validate("instance-firewall", "Instance", { label: "web" }).violations[0]).toContain(
      "has no interfaces, so the API gives it a public one, and no firewallId",
    );
    expect(validate("instance-firewall", "Instance", { interfaces: both, firewallId: 7 }).violations).toEqual([]);
    // A firewall the same stack makes: its id is unknown until up, and it is a firewall all the same.
    expect(validate("instance-firewall", "Instance", { interfaces: both, firewallId: UNKNOWN })).toEqual({ violations: [] });
    expect(validate("instance-firewall", "Instance", { interfaces: vpcOnly })).toEqual({ violations: [] });
    // Through the provider plugin's type token as well.
    expect(validate("instance-firewall", "Instance", { interfaces: both }, { type: packageType("Instance") }).violations).toHaveLength(1);
  });

  test("an unknown interface list or purpose is checked at up; a known public one is reported at preview", () => {
    expect(validate("instance-firewall", "Instance", { interfaces: UNKNOWN }).atUp).toContain('Instance "it": interfaces is known only');
    expect(validate("instance-firewall", "Instance", { interfaces: [{ purpose: UNKNOWN }] }).atUp).toContain("interfaces[0].purpose");
    expect(validate("instance-firewall", "Instance", { interfaces: [{ purpose: UNKNOWN }, { purpose: "public" }] })).toEqual({
      violations: [expect.stringContaining("has a public interface and no firewallId")],
    });
  });
});

test("every policy has a name, a one-line description, a default level, and a default and meaning for each setting", () => {
  expect(COMPUTE_POLICIES.map((p) => [p.name, p.enforcementLevel])).toEqual([
    ["firewall-exposure", "mandatory"],
    ["database-exposure", "mandatory"],
    ["database-transport", "mandatory"],
    ["database-availability", "mandatory"],
    ["record-ttl", "advisory"],
    ["required-tags", "mandatory"],
    ["instance-firewall", "advisory"],
  ]);
  for (const p of COMPUTE_POLICIES) {
    expect(p.description).toMatch(/^[A-Z][^\n]*\.$/);
    for (const setting of Object.values(p.settings))
      expect(setting).toEqual({ schema: expect.any(Object), default: expect.anything(), description: expect.any(String) });
  }
});
