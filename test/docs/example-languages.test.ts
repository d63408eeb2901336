/**
 * The Python and Go forms of the reference pages' examples (`scripts/docs/python.ts`, `go.ts`),
 * on what no page shows yet: text that Python's `format` or Go's `Sprintf` would read as their
 * own, a value that may be absent given where Go needs one, and what neither can say. Each is
 * given the `YamlProgram` the pages' TypeScript becomes (`yaml.ts`), here as its YAML text. That
 * every page's block runs is `test/sdks/python.test.ts` and `go.test.ts`.
 */
import { REPO_ROOT } from "../support/engine";
import { goProgram } from "../../scripts/docs/go";
import { readSchema } from "../../scripts/docs/program";
import { pythonProgram } from "../../scripts/docs/python";
import { type YamlProgram, jsYaml } from "../../scripts/docs/yaml";

const schema = readSchema(REPO_ROOT);
const program = (lines: string[]): YamlProgram => ({
  config: {},
  resources: {},
  variables: {},
  outputs: {},
  ...(jsYaml().load(lines.join("\n")) as Partial<YamlProgram>),
});
/** A resource of the YAML program: its key, type and properties (a flow mapping). */
const resource = (key: string, type: string, properties: string) => [`  ${key}:`, `    type: ${type}`, `    properties: ${properties}`];
const VPC = ["resources:", ...resource("app", "compute:index:Vpc", "{ label: app-net, region: us-iad }")];
const IPS = (key: string) => [
  "variables:",
  `  ${key}:`,
  "    fn::invoke: { function: compute:index:getIps, arguments: { address: 198.51.100.10 }, return: items }",
];

test("literal braces and percent signs of an interpolation stay text in Python and Go", () => {
  const p = program([...VPC, "outputs:", '  note: "{100%} ${app.label} at ${app.id}"']);
  expect(pythonProgram(p, schema)).toContain('pulumi.export("note", pulumi.Output.format("{{100%}} {0} at {1}", app.label, app.id))');
  expect(goProgram(p, schema)).toContain('ctx.Export("note", pulumi.Sprintf("{100%%} %v at %v", app.Label, app.ID()))');
});

test("a number in an interpolation is written as YAML writes it (64, not 64.0)", () => {
  const p = program([
    "resources:",
    ...resource("v6", "compute:index:Ipv6Range", "{ prefixLength: 64, computeId: 1 }"),
    "outputs:",
    '  block: "${v6.range}/${v6.prefixLength}"',
  ]);
  expect(pythonProgram(p, schema)).toContain('pulumi.Output.format("{0}/{1:g}", v6.range, v6.prefix_length)');
});

test("Go gives a value that may be absent where one is required as its Elem()", () => {
  const p = program([
    "resources:",
    ...resource("zone", "compute:index:Domain", "{ domain: example.com, type: master, soaEmail: admin@example.com }"),
    ...resource("www", "compute:index:DomainRecord", '{ domainId: "${zone.id}", type: CNAME, name: www, target: "${rdns[0].rdns}" }'),
    ...IPS("rdns"),
  ]);
  const go = goProgram(p, schema);
  expect(go).toMatch(/Target: +rdns\.Items\(\)\.Index\(pulumi\.Int\(0\)\)\.Rdns\(\)\.Elem\(\),/);
  expect(go).toMatch(/DomainId: +zone\.ID\(\),/);
  expect(pythonProgram(p, schema)).toContain("target=rdns.apply(lambda result: result.items[0].rdns)");
});

test("a program's names become each language's, and an unread resource is no variable", () => {
  const p = program([
    "resources:",
    ...resource("edge", "compute:index:Firewall", "{ label: edge-fw, inboundPolicy: DROP, outboundPolicy: ACCEPT }"),
    ...resource(
      "web-1",
      "compute:index:FirewallDevice",
      '{ firewallId: "${edge.id}", entityId: "${web1[0].computeId}", entityType: compute }',
    ),
    ...IPS("web1"),
  ]);
  const python = pythonProgram(p, schema);
  expect(python).toMatch(/^compute\.FirewallDevice\(/m);
  expect(python).toContain('web1 = compute.get_ips_output(address="198.51.100.10")');
  const go = goProgram(p, schema);
  expect(go).toContain('_, err = compute.NewFirewallDevice(ctx, "web-1", ');
  expect(go).toContain("web1 := compute.GetIpsOutput(ctx, ");
});

test("a stack reference has no Python or Go form yet: the generator says so rather than write a wrong one", () => {
  const p = program([
    "resources:",
    ...resource("net", "pulumi:pulumi:StackReference", "{ name: organization/net/prod }"),
    "outputs:",
    '  fw: "${net.outputs[\\"firewallId\\"]}"',
  ]);
  expect(() => pythonProgram(p, schema)).toThrow("a stack reference (net) has no Python or Go form here yet");
  expect(() => goProgram(p, schema)).toThrow("a stack reference (net) has no Python or Go form here yet");
});
