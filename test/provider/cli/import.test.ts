/**
 * `pulumi-compute import`'s generator and command, without the Pulumi engine: names, references,
 * defaults left out, secrets never written, the layout Prettier would give, every written resource
 * equal (as `diff` compares) to the object it adopts, and bad input refused before anything is
 * written. The account is read from the emulator over HTTP; the whole path through `pulumi up`
 * is `test/e2e/import.e2e.test.ts`.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runProcess } from "../../support/process";
import { REPO_ROOT } from "../../support/engine";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { ComputeClient } from "../../../sdk/client";
import { changedFields, check, toOutputs } from "../../../provider/engine/engine";
import type { AnySpec } from "../../../provider/engine/spec";
import { RESOURCE_SPECS } from "../../../provider/generated/spec-table";
import { AREAS, type AreaContents } from "../../../provider/cli/import/account";
import { filterByLabel, readAreas, runImport, selectAreas } from "../../../provider/cli/import/command";
import { programInputs } from "../../../provider/engine/import-inputs";
import { Reference, layout, stringLiteral } from "../../../provider/cli/import/literal";
import { identifier, identifiers, resourceNames, slug } from "../../../provider/cli/import/program-names";
import { buildProgram, renderProgram, type Program } from "../../../provider/cli/import/program";
import { APP_1_VPC_IPV4, seedImportAccount, type SeededAccount } from "../../support/import-account";

jest.setTimeout(120_000);

let emulator: RunningEmulator;
let client: ComputeClient;
let seeded: SeededAccount;
let contents: AreaContents[];
let program: Program;
let index: string;
let base: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, timeScale: 300 });
  client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  seeded = await seedImportAccount(emulator, client);
  contents = await readAreas(client, AREAS, { recordSets: false });
  program = buildProgram(RESOURCE_SPECS, AREAS, contents);
  index = renderProgram(program, emulator.url);
  if (process.env.IMPORT_DUMP) fs.writeFileSync(process.env.IMPORT_DUMP, index);
  base = fs.mkdtempSync(path.join(os.tmpdir(), "pc-import-unit-"));
});

afterAll(async () => {
  await client?.close();
  await emulator?.close();
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

const resources = () => program.sections.flatMap((s) => s.resources);
const ofKind = (kind: string) => resources().filter((r) => r.kind === kind);

describe("names", () => {
  test("labels become slugs, identifiers valid in TypeScript, unique where they would collide", () => {
    expect(slug("Ops-Net-2", "vpc")).toBe("ops-net-2");
    expect(slug("db_fw.internal", "firewall")).toBe("db-fw-internal");
    expect(slug("Café ☕", "x")).toBe("cafe");
    expect(slug("☕", "domain-record")).toBe("domain-record");
    expect(identifier("ops-net-2", "vpc")).toBe("opsNet2");
    expect(identifier("2001-db8--1", "range")).toBe("range2001Db81");
    expect(identifier("new", "vpc")).toBe("new_");
    const names = resourceNames();
    expect([names.take("web"), names.take("web"), names.take("web")]).toEqual(["web", "web-2", "web-3"]);
    const ids = identifiers();
    expect([ids.take("web"), ids.take("web")]).toEqual(["web", "web2"]);
  });

  test("every identifier of the generated program is unique and valid; resource names are unique per type", () => {
    const all = resources();
    expect(new Set(all.map((r) => r.identifier)).size).toBe(all.length);
    for (const r of all) expect(r.identifier).toMatch(/^[A-Za-z_$][A-Za-z0-9_$]*$/);
    for (const kind of new Set(all.map((r) => r.kind))) {
      const names = ofKind(kind).map((r) => r.name);
      expect(new Set(names).size).toBe(names.length);
    }
    // Two MX records at the apex of example.com get distinct names.
    expect(
      ofKind("DomainRecord")
        .filter((r) => r.name.startsWith("example-com-mx-apex"))
        .map((r) => r.name),
    ).toEqual(["example-com-mx-apex", "example-com-mx-apex-2"]);
  });
});

describe("the program", () => {
  test("has one resource per object, grouped by area, each with adoptId", () => {
    expect(program.sections.map((s) => s.title)).toEqual(AREAS.map((a) => a.title));
    expect(Object.fromEntries([...new Set(resources().map((r) => r.kind))].map((k) => [k, ofKind(k).length]))).toEqual({
      Vpc: 2,
      VpcSubnet: 3,
      Firewall: 2,
      FirewallDevice: 4,
      Instance: 1,
      Ipv6Range: 1,
      ReverseDns: 1,
      Domain: 3,
      DomainRecord: seeded.records,
      MysqlDatabase: 1,
      PostgresqlDatabase: 1,
      Image: 1,
    });
    for (const r of resources()) expect(r.inputs.adoptId).toBe(r.source.id);
    // Each area writes the kinds it declares (which test/checks/kind-lists.test.ts holds against the spec table).
    AREAS.forEach((area, i) => expect(contents[i]!.objects.filter((o) => !area.kinds.includes(o.kind))).toEqual([]));
    expect(program.notes).toEqual([
      ...["web-1", "web-2", "db-1"].map((label, i) =>
        expect.stringMatching(`^instance ${label} \\(${seeded.computeIds[i]}\\): it was not deployed from an image`),
      ),
      expect.stringMatching(/^\d+ public image\(s\): the platform's distributions/),
    ]);
  });

  test("references the objects it holds instead of literal ids", () => {
    expect(index).toMatch(/const appNetWeb = new compute\.VpcSubnet\("app-net-web", \{\n?\s*vpcId: appNet\.id,/);
    expect(index).toMatch(
      /new compute\.FirewallDevice\("web-fw-web-1", \{\n\s*firewallId: webFw\.id,\n\s*entityId: \d+,\n\s*entityType: "compute",/,
    );
    expect(index).toMatch(/new compute\.DomainRecord\("example-com-a-www", \{\n?\s*domainId: exampleCom\.id,/);
    for (const r of [...ofKind("VpcSubnet"), ...ofKind("DomainRecord"), ...ofKind("FirewallDevice")]) {
      expect(Object.values(r.inputs).filter((v) => v instanceof Reference)).toHaveLength(1);
    }
  });

  test("an instance: its interfaces with the addresses they hold, its subnet and firewall as references, its tags; no root password", () => {
    const [app] = ofKind("Instance");
    expect(app!.inputs).toEqual({
      label: "app-1",
      region: "us-iad",
      type: "g6-nanode-1",
      image: "public/debian12",
      tags: ["app", "prod"],
      firewallId: expect.any(Reference),
      interfaces: [{ purpose: "public" }, { purpose: "vpc", subnetId: expect.any(Reference), ipv4: { vpc: APP_1_VPC_IPV4 } }],
      adoptId: String(seeded.computeIds[3]),
    });
    expect(index).toMatch(
      /firewallId: webFw\.id,\n\s*interfaces: \[\n\s*\{ purpose: "public" \},\n\s*\{ purpose: "vpc", subnetId: appNetWeb\.id,/,
    );
    expect(index).not.toContain("console-only-root-password");
    // Its firewall is a device of web-fw's too, which changes it in place.
    expect(ofKind("FirewallDevice").filter((d) => d.inputs.entityId === seeded.computeIds[3])).toHaveLength(1);
  });

  test("an instance whose subnet and firewall are not in the program names their ids", async () => {
    const instances = AREAS.find((a) => a.name === "instances")!;
    const alone = buildProgram(RESOURCE_SPECS, [instances], await readAreas(client, [instances], { recordSets: false }));
    const [app] = alone.sections.flatMap((s) => s.resources);
    const web = ofKind("VpcSubnet").find((r) => r.name === "app-net-web")!;
    const fw = ofKind("Firewall").find((r) => r.name === "web-fw")!;
    expect(app!.inputs).toMatchObject({
      firewallId: Number(fw.source.id),
      interfaces: [{ purpose: "public" }, { purpose: "vpc", subnetId: Number(web.source.id) }],
    });
  });

  test("writes only inputs that differ from the API's defaults, and the API's spelling of the rest", () => {
    const vpc = ofKind("Vpc").find((r) => r.name === "ops-net-2")!;
    expect(vpc.inputs).toEqual({ label: "Ops-Net-2", region: "us-ord", adoptId: vpc.source.id }); // description "" left out
    const fw = ofKind("Firewall").find((r) => r.name === "web-fw")!;
    expect(fw.inputs).not.toHaveProperty("status"); // enabled is the default
    const internal = ofKind("Firewall").find((r) => r.name === "db-fw-internal")!.inputs;
    expect(internal).toMatchObject({ status: "disabled", outboundPolicy: "DROP" });
    // No outbound rules, written as such: an imported firewall owns both rulesets (an absent one would be left alone).
    expect(internal).toMatchObject({ outbound: [] });
    const records = ofKind("DomainRecord").map((r) => r.inputs);
    const withPriority = records.filter((r) => "priority" in r);
    expect(withPriority.length).toBeGreaterThan(0);
    expect(withPriority.every((r) => r.type === "MX" || r.type === "SRV")).toBe(true);
    expect(records.filter((r) => r.ttlSec === 0 || r.name === "" || (r.type !== "SRV" && r.weight === 0))).toEqual([]);
    // The API's default, but required for SRV records: written.
    expect(records).toContainEqual(expect.objectContaining({ type: "SRV", name: "_ldap._udp.dir", priority: 0, weight: 100, port: 389 }));
    expect(records).toContainEqual(expect.objectContaining({ type: "A", name: "www2", ttlSec: 300 }));
    expect(records).toContainEqual(expect.objectContaining({ type: "CNAME", name: "docs", target: "pages.example.org" }));
    const shop = ofKind("Domain").find((r) => r.name === "shop-example-net")!;
    expect(shop.inputs).toMatchObject({ domain: "shop.example.net", description: "Storefront", refreshSec: 7200 });
    expect(shop.inputs).not.toHaveProperty("group"); // "" is the API's "not set"
    const mysql = ofKind("MysqlDatabase")[0]!;
    expect(mysql.inputs).toMatchObject({ engineId: "mysql/8.0.30", allowList: ["203.0.113.1", "10.0.1.0/24"] });
    expect(mysql.inputs).not.toHaveProperty("clusterSize");
    expect(ofKind("Image")[0]!.inputs).toEqual({
      label: "golden-web",
      description: "Ubuntu with nginx",
      cloudInit: true,
      adoptId: seeded.imageId,
    });
  });

  test("every resource passes the spec's check and is what `diff` finds equal to the object it adopts", () => {
    // What a program's references hold at up: the referenced objects' ids.
    const resolved = (value: unknown): unknown =>
      value instanceof Reference
        ? Number(resources().find((o) => o.identifier === value.identifier)!.source.id)
        : Array.isArray(value)
          ? value.map(resolved)
          : value !== null && typeof value === "object"
            ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolved(v)]))
            : value;
    for (const r of resources()) {
      const spec = RESOURCE_SPECS[r.kind] as AnySpec;
      const parent = r.source.parent && { [r.source.parent.input]: Number(r.source.parent.object.id) };
      const current = toOutputs(spec, r.source.record, { ...r.source.given, ...parent });
      const inputs = resolved({ ...r.inputs, ...parent }) as Record<string, unknown>;
      expect({ name: r.name, ...changedFields(spec, current, inputs) }).toEqual({ name: r.name, changed: [], replaces: [] });
      expect({ name: r.name, failures: check(spec, inputs).failures }).toEqual({ name: r.name, failures: undefined });
    }
  });

  test("never writes a secret: no secret input, no database password, no token", async () => {
    const credentials = await client.databases.mysql.credentials(seeded.mysqlId);
    expect(index).not.toContain(credentials.password);
    expect(index).not.toContain(emulator.token);
    const spec = {
      ...RESOURCE_SPECS.Vpc!,
      inputs: { ...RESOURCE_SPECS.Vpc!.inputs, password: { ...RESOURCE_SPECS.Vpc!.inputs.label!, secret: true } },
    };
    expect(programInputs(spec as AnySpec, { id: 1, label: "x", region: "us-iad", description: "", password: "hunter2" }, {})).toEqual({
      label: "x",
      region: "us-iad",
    });
  });

  test("is laid out as Prettier lays it out", async () => {
    const file = path.join(base, "formatted", "index.ts");
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, index);
    const prettier = path.join(REPO_ROOT, "node_modules/prettier/bin/prettier.cjs");
    const checked = await runProcess(process.execPath, [prettier, "--no-config", "--print-width", "100", "--check", file], { cwd: base });
    expect({ code: checked.code, out: checked.code ? checked.out : "" }).toEqual({ code: 0, out: "" });
    expect(stringLiteral('say "hi"')).toBe("'say \"hi\"'");
    expect(layout({ a: "x".repeat(120) }, 0, "", ";")).toBe(`{\n  a: "${"x".repeat(120)}",\n}`);
  });

  test("--record-sets: each domain's records become one DomainRecordSet, its records written as the DomainRecords are", async () => {
    const domainsArea = AREAS.find((a) => a.name === "domains")!;
    const setContents = await domainsArea.read(client, { recordSets: true }, []);
    const setProgram = buildProgram(RESOURCE_SPECS, [domainsArea], [setContents]);
    const sets = setProgram.sections.flatMap((s) => s.resources).filter((r) => r.kind === "DomainRecordSet");
    expect(setContents.objects.filter((o) => !domainsArea.kinds.includes(o.kind))).toEqual([]);
    expect(sets.map((r) => r.name)).toEqual(seeded.domainIds.map((_, i) => ofKind("Domain")[i]!.name + "-records"));
    const spec = RESOURCE_SPECS.DomainRecordSet as AnySpec;
    for (const set of sets) {
      expect(set.inputs.domainId).toBeInstanceOf(Reference);
      expect(set.inputs.adoptId).toBe(set.source.parent!.object.id);
      // The same records, in the same spelling, as the one-per-record program writes for this domain.
      const domain = ofKind("Domain").find((d) => d.source.id === set.source.parent!.object.id)!;
      const each = ofKind("DomainRecord")
        .filter((r) => (r.inputs.domainId as Reference).identifier === domain.identifier)
        .map(({ inputs: { domainId: _d, adoptId: _a, ...fields } }) => fields);
      expect(set.inputs.records).toEqual(each);
      const given = { domainId: Number(set.source.parent!.object.id) };
      const inputs = { ...set.inputs, ...given };
      expect(changedFields(spec, toOutputs(spec, set.source.record, given), inputs)).toEqual({ changed: [], replaces: [] });
      expect(check(spec, inputs).failures).toBeUndefined();
    }
    expect(sets.reduce((n, s) => n + (s.inputs.records as unknown[]).length, 0)).toBe(seeded.records);
  });

  test("a label filter keeps matching objects and their children", () => {
    const domains = contents[AREAS.findIndex((a) => a.name === "domains")]!;
    const kept = filterByLabel(domains, /^lab\./);
    expect(kept.objects.filter((o) => o.kind === "Domain").map((o) => o.label)).toEqual(["lab.org"]);
    expect(kept.objects.filter((o) => o.kind === "DomainRecord")).toHaveLength(8);
  });
});

describe("documentation", () => {
  test("the import guide's excerpt is what the generator writes for such an account (ids aside)", () => {
    const section = fs.readFileSync(path.join(REPO_ROOT, "docs/guides/import.md"), "utf8");
    const excerpt = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
    const statements = excerpt.match(/^const [\s\S]*?^\}\);$/gm) ?? [];
    expect(statements.length).toBeGreaterThanOrEqual(4);
    const withoutIds = (text: string) => text.replace(/(adoptId: "|entityId: )[^,\n]*/g, "$1…");
    for (const statement of statements) expect(withoutIds(index)).toContain(withoutIds(statement));
  });

  test("`pulumi-compute import --help` documents every flag and area", async () => {
    const help = await runProcess(process.execPath, [path.join(REPO_ROOT, "dist/provider/cli/main.js"), "import", "--help"]);
    expect(help.code).toBe(0);
    for (const flag of ["--api-url", "--token-env", "--only", "--label-filter", "--record-sets", "--out", "--stack", "--help"])
      expect(help.out).toContain(flag);
    for (const area of AREAS) expect(help.out).toContain(area.name);
    const unknown = await runProcess(process.execPath, [path.join(REPO_ROOT, "dist/provider/cli/main.js"), "import", "--colour"]);
    expect(unknown.code).toBe(1);
    expect(unknown.out).toContain("Unknown option '--colour'");
  });
});

describe("bad input: a clear error, exit code 1, nothing written", () => {
  const run = async (
    args: { only?: string[]; out?: string; apiUrl?: string },
    env: NodeJS.ProcessEnv = { COMPUTE_TOKEN: emulator.token },
  ) => {
    const err: string[] = [];
    const out = args.out ?? path.join(base, `out-${Math.random().toString(36).slice(2)}`);
    const code = await runImport(
      { apiUrl: args.apiUrl ?? emulator.url, only: args.only, out },
      { out: () => undefined, err: (t) => err.push(t) },
      env,
    );
    return { code, err: err.join("\n"), written: fs.existsSync(out) && fs.readdirSync(out).length > 0 };
  };

  test("a missing token", async () => {
    expect(await run({}, {})).toEqual({
      code: 1,
      err: expect.stringContaining("no API token: the environment variable COMPUTE_TOKEN"),
      written: false,
    });
  });

  test("a wrong token", async () => {
    expect(await run({}, { COMPUTE_TOKEN: "wrong" })).toEqual({
      code: 1,
      err: expect.stringContaining("refused the token in COMPUTE_TOKEN (HTTP 401)"),
      written: false,
    });
  });

  test("a wrong URL: an address where nothing listens, and a path that is not the API root", async () => {
    expect(await run({ apiUrl: "http://127.0.0.1:9/v4" })).toEqual({
      code: 1,
      err: expect.stringContaining("cannot reach the API at http://127.0.0.1:9/v4"),
      written: false,
    });
    expect(await run({ apiUrl: emulator.url.replace(/\/v4$/, "/v9") })).toEqual({
      code: 1,
      err: expect.stringMatching(/does not look like the API root/),
      written: false,
    });
  });

  test("an --out folder that is not empty", async () => {
    const out = path.join(base, "full");
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, "keep.txt"), "mine");
    expect(await run({ out })).toEqual({ code: 1, err: expect.stringContaining("is not empty"), written: true });
    expect(fs.readdirSync(out)).toEqual(["keep.txt"]);
  });

  test("an unknown --only area", async () => {
    expect(() => selectAreas(["vpcs", "volumes"])).toThrow(
      'unknown --only area "volumes"; valid areas: vpcs, firewalls, instances, ipv6, rdns, domains, databases, images',
    );
    expect(await run({ only: ["volumes"] })).toMatchObject({ code: 1, written: false });
  });

  test("a good run writes the whole project and nothing beside it", async () => {
    const out = path.join(base, "good");
    const result = await run({ out, only: ["vpcs"] });
    expect(result).toEqual({ code: 0, err: "", written: true });
    expect(fs.readdirSync(out).sort()).toEqual(["Pulumi.yaml", "index.ts", "package.json", "tsconfig.json"]);
    expect(fs.readdirSync(base).filter((f) => f.startsWith("."))).toEqual([]);
    expect(JSON.parse(fs.readFileSync(path.join(out, "package.json"), "utf8")).dependencies["pulumi-compute"]).toMatch(/^\^\d/);
  });
});
