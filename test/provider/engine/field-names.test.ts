/**
 * Failure reasons speak the program's names: every sdk reason text and every validation path of
 * every resource spec, through the engine, with no snake_case wire name left for a user to read;
 * and the cases users met (`ttl_sec`, `soa_email`, `engine`, `type`, 2 KB of firewall rules).
 */
import { BadRequestError } from "../../../sdk/core/errors";
import { DOMAIN_REASONS, RECORD_REASONS } from "../../../sdk/resources/domains";
import { DATABASE_REASONS } from "../../../sdk/resources/databases";
import { FIREWALL_REASONS } from "../../../sdk/resources/firewalls";
import { check, explain } from "../../../provider/engine/engine";
import { excerpt, programNames, programText } from "../../../provider/engine/field-names";
import type { AnySpec, Failure } from "../../../provider/engine/spec";
import { RESOURCE_SPECS } from "../../../provider/generated/spec-table";
import { ENDPOINTS } from "../../../sdk/endpoints";
import { args as firewallArgs, rule } from "../firewall-inputs";

/** The sdk area whose reason texts each resource's failures can carry: that of the endpoints its spec writes with. */
const AREA: Record<string, string> = Object.fromEntries(
  Object.keys(RESOURCE_SPECS).map((name) => {
    const write = RESOURCE_SPECS[name]!.endpoints.write[0];
    return [name, ENDPOINTS.find((e) => e.name === write)!.service];
  }),
);

/**
 * snake_case words in reason texts that are neither values nor names of any resource's input:
 * they belong to requests no resource makes, so they never reach a program.
 */
const NOT_PROGRAM_INPUTS: Record<string, string> = {
  skip_ipv6_rdns: "a query parameter of the IP list, which no resource sends",
  remote_nameserver: "the domain import request, which no resource sends",
};

/** Valid inputs of each resource, so cross-field rules run on the variations below. */
const VALID: Record<string, Record<string, unknown>> = {
  Vpc: { label: "app-net", region: "us-iad" },
  VpcSubnet: { vpcId: 1, label: "web", ipv4: "10.0.1.0/24" },
  Domain: { domain: "example.com", type: "master", soaEmail: "admin@example.com" },
  DomainRecord: { domainId: 1, type: "A", target: "203.0.113.7" },
  DomainRecordSet: { domainId: 1, records: [{ type: "A", name: "www", target: "203.0.113.7" }] },
  Firewall: firewallArgs(),
  FirewallDevice: { firewallId: 1, entityId: 2, entityType: "compute" },
  FirewallRule: {
    firewallId: 1,
    direction: "inbound",
    label: "app-https",
    action: "ACCEPT",
    protocol: "TCP",
    addresses: { ipv4: ["10.0.0.0/24"] },
  },
  Image: { diskId: 1, label: "golden" },
  Instance: { label: "web-1", region: "us-iad", type: "g6-nanode-1", image: "public/debian12", rootPass: "a-long-root-password" },
  Ipv6Range: { prefixLength: 64, computeId: 1 },
  DatabaseAllowListEntry: { engine: "mysql", databaseId: 1, address: "203.0.113.7" },
  ReverseDns: { address: "203.0.113.7", rdns: "www.example.com" },
  MysqlDatabase: { label: "db-one", region: "us-iad", type: "g6-nanode-1", engineId: "mysql/8" },
  PostgresqlDatabase: { label: "db-one", region: "us-iad", type: "g6-nanode-1", engineId: "postgresql/16" },
};

/** Values that break most schemas in some way: wrong types, out of range, empty, too long, malformed. */
const BAD_VALUES: unknown[] = [
  -1,
  1.5,
  0,
  99999,
  "",
  "not valid!",
  "x".repeat(300),
  true,
  [],
  ["bad value"],
  [{}],
  [{ ports: "99999", protocol: "TCP", action: "ACCEPT" }],
  {},
  { hourOfDay: 99, dayOfWeek: 9, duration: 9, frequency: "daily", weekOfMonth: 9 },
  { ipv4: ["bad"] },
];

const SNAKE_WORD = /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g;

/** The specs whose failures can carry an sdk area's reason texts. */
const specsOf = (area: string) =>
  Object.keys(AREA)
    .filter((name) => AREA[name] === area)
    .map((name) => RESOURCE_SPECS[name]!);

/**
 * snake_case words of `text`, shown to a user of `spec`, that are wire names: its own (which the
 * engine should have renamed), or names no resource of the area knows (so none could rename them).
 * Values the API accepts (`semi_synch`) and the names of requests no resource makes are not names.
 */
function wireNamesIn(spec: AnySpec, text: string): string[] {
  const own = programNames(spec);
  const area = specsOf(AREA[spec.name]!).map(programNames);
  const known = (w: string) => area.some((n) => n.renames.has(w) || n.values.has(w));
  return (text.match(SNAKE_WORD) ?? []).filter((w) => own.renames.has(w) || (!known(w) && !(w in NOT_PROGRAM_INPUTS)));
}

/** Every reason text of an sdk area: the strings of its `…_REASONS` objects, and the functions called with each name. */
function reasonTexts(area: string, samples: string[]): string[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the area is a table value
  const module = require(`../../../sdk/resources/${area}`) as Record<string, unknown>;
  const tables = Object.entries(module).filter(([name]) => name.endsWith("REASONS"));
  expect(tables.length).toBeGreaterThan(0);
  return tables.flatMap(([, table]) =>
    Object.values(table as Record<string, unknown>).flatMap((text) => {
      if (typeof text === "string") return [text];
      if (typeof text !== "function") return [];
      // A text built from a name (`${field} is required for MX records`) is built with each of the
      // spec's names; one built from typed values (an operation and a status) throws on a name.
      return samples.flatMap((sample) => {
        try {
          return [String((text as (...a: string[]) => unknown)(...Array<string>(text.length).fill(sample)))];
        } catch {
          return [];
        }
      });
    }),
  );
}

const failuresOf = (spec: AnySpec, inputs: Record<string, unknown>): Failure[] => check(spec, inputs).failures ?? [];

test("the valid inputs name every resource", () => {
  expect(Object.keys(VALID).sort()).toEqual(Object.keys(RESOURCE_SPECS).sort());
});

describe.each(Object.keys(RESOURCE_SPECS).sort())("%s", (name) => {
  const spec = RESOURCE_SPECS[name]!;
  const names = programNames(spec);
  const wireSamples = [...names.renames.keys()].filter((w) => /_/.test(w));

  test("every reason text of its sdk area names no wire field once in the program's words", () => {
    const leaks = reasonTexts(AREA[name]!, ["x", ...wireSamples]).flatMap((text) => {
      const shown = programText(names, text);
      return wireNamesIn(spec, shown).map((word) => `${word} in "${shown}"`);
    });
    expect(leaks).toEqual([]);
  });

  test("its valid inputs pass check", () => {
    expect(failuresOf(spec, VALID[name]!)).toEqual([]);
  });

  test("every validation path — each input missing, each input bad — names no wire field and prints no long value", () => {
    const runs: Array<{ inputs: Record<string, unknown>; failures: Failure[] }> = [];
    const run = (inputs: Record<string, unknown>) => runs.push({ inputs, failures: failuresOf(spec, inputs) });
    for (const key of Object.keys(spec.inputs)) {
      const { [key]: _, ...without } = VALID[name]!;
      run(without);
      for (const bad of BAD_VALUES) run({ ...VALID[name]!, [key]: bad });
    }
    const shown = runs.flatMap((r) => r.failures);
    expect(shown.length).toBeGreaterThan(0);
    const leaks = shown.flatMap((f) => wireNamesIn(spec, `${f.property} ${f.reason}`).map((w) => `${w} in ${JSON.stringify(f)}`));
    expect(leaks).toEqual([]);
    // The engine prints the value of a failure's top-level property: never a long one.
    const isLong = (value: unknown) => value !== undefined && excerpt(value) !== JSON.stringify(value);
    const long = runs.flatMap((r) => r.failures.filter((f) => f.property && isLong(r.inputs[f.property])));
    expect(long).toEqual([]);
  });
});

describe("the reasons users met", () => {
  const reasons = (name: string, inputs: Record<string, unknown>) => failuresOf(RESOURCE_SPECS[name]!, inputs);

  test("a record's TTL is ttlSec", () => {
    expect(reasons("DomainRecord", { ...VALID.DomainRecord, ttlSec: -5 })).toEqual([
      { property: "ttlSec", reason: RECORD_REASONS.ttlInvalid.replace("ttl_sec", "ttlSec") },
    ]);
  });

  test("a master domain's email is soaEmail", () => {
    const { soaEmail: _, ...withoutEmail } = VALID.Domain!;
    expect(reasons("Domain", withoutEmail)).toEqual([{ property: "soaEmail", reason: "soaEmail required when type=master" }]);
    expect(reasons("Domain", { ...VALID.Domain, soaEmail: "nobody" })).toEqual([
      { property: "soaEmail", reason: DOMAIN_REASONS.soaEmailInvalid.replace("soa_email", "soaEmail") },
    ]);
  });

  test("a database's engine is engineId", () => {
    expect(reasons("MysqlDatabase", { ...VALID.MysqlDatabase, engineId: "postgresql/16" })).toEqual([
      { property: "engineId", reason: DATABASE_REASONS.engineWrongType("mysql").replace(/^engine/, "engineId") },
    ]);
  });

  test("a firewall device's type is entityType", () => {
    expect(reasons("FirewallDevice", { ...VALID.FirewallDevice, entityType: "volume" })).toEqual([
      { property: "entityType", reason: "entityType must be compute or nodebalancer" },
    ]);
  });

  test("more than 25 firewall rules: the reason, with a short excerpt of the rules, not 2 KB of them", () => {
    const inbound = Array.from({ length: 30 }, (_, i) => rule({ label: `rule-${i}` }));
    const [failure, ...others] = reasons("Firewall", firewallArgs({ inbound }));
    expect(others).toEqual([]);
    expect(failure!.property).toBe(""); // the engine prints a property's whole value; this names it in the reason
    expect(failure!.reason).toMatch(/^inbound \[\{"action":"ACCEPT".*… \(30 items\): /);
    expect(failure!.reason.endsWith(FIREWALL_REASONS.rulesTooMany)).toBe(true);
    expect(failure!.reason.length).toBeLessThan(200);
  });

  test("a nested rule's path is the program's: inbound[3].ports", () => {
    const inbound = [rule(), rule(), rule(), rule({ ports: "99999" })];
    expect(reasons("Firewall", firewallArgs({ inbound }))).toEqual([
      { property: "", reason: expect.stringMatching(/^inbound\[3\]\.ports: /) },
    ]);
  });

  test("API errors are mapped back from their field, reason included", () => {
    const refused = (name: string, field: string, reason: string) =>
      explain(RESOURCE_SPECS[name]!, "create", new BadRequestError(400, [{ field, reason }], { method: "POST", path: "/x" })).message;
    expect(refused("DomainRecord", "ttl_sec", RECORD_REASONS.ttlInvalid)).toContain(
      "ttlSec: ttlSec must be a whole number of seconds, 0 or more (HTTP 400",
    );
    expect(refused("MysqlDatabase", "engine", "engine must be a mysql version")).toContain("engineId: engineId must be a mysql version");
    expect(refused("FirewallDevice", "type", "type must be compute or nodebalancer")).toContain(
      "entityType: entityType must be compute or nodebalancer",
    );
    expect(refused("Firewall", "rules.inbound[3].ports", "Ports must be between 1 and 65535")).toContain("inbound[3].ports: Ports");
    expect(refused("Firewall", "rules.inbound_policy", "inbound_policy must be ACCEPT or DROP")).toContain(
      "inboundPolicy: inboundPolicy must be",
    );
  });

  test("an input the program misspelled in the API's way is named as the program wrote it", () => {
    expect(reasons("DomainRecord", { ...VALID.DomainRecord, ttl_sec: 300 })).toEqual([
      { property: "ttl_sec", reason: expect.stringMatching(/^ttl_sec is not an input of DomainRecord; valid inputs: .*ttlSec/) },
    ]);
  });

  test("a plain word is renamed only where it names the reason's subject", () => {
    const names = programNames(RESOURCE_SPECS.FirewallDevice!);
    expect(programText(names, "type must be compute")).toBe("entityType must be compute");
    expect(programText(names, "The type of a device cannot change")).toBe("The type of a device cannot change");
  });
});
