/**
 * Who holds an object (`provider/engine/ownership.ts`): the stacks of a `file://` backend read as
 * checkpoints, the answer for this stack, another stack and nobody, a backend that does not hold
 * the stack being served, and the aliases a rename or a move needs; the messages built on them.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { servingContext } from "../../../provider/serve/serving-context";
import { adoptClash, clashMessage } from "../../../provider/engine/natural-key";
import { aliasFor, aliasOf, holderOf, holdings, parseUrn } from "../../../provider/engine/ownership";
import { aliasText, type ProgramLanguage } from "../../../provider/engine/alias-text";
import { projectLanguage, runtimeOf } from "../../../provider/stores/project-language";
import { currentBackendUrl, readStackResources } from "../../../provider/stores/backend-store";
import { specOf } from "../../../provider/registry";
import type { StateEntry } from "../../../provider/engine/ports";
import { useDiyBackend } from "../../support/diy-backend";

const vpc = specOf("Vpc");
const urn = (stack: string, name: string, types = "pulumi-nodejs:dynamic/compute:Vpc") => `urn:pulumi:${stack}::app::${types}::${name}`;

const diy = useDiyBackend("pc-ownership-");
/** A diy backend holding project `app`'s stacks, each with the given resources. */
const backend = (stacks: Record<string, StateEntry[]>): string => diy.stacks(stacks);

test("URNs: stack, project, types and name", () => {
  expect(parseUrn("urn:pulumi:dev::app::acme:Net$pulumi-nodejs:dynamic/compute:Vpc::app")).toEqual({
    stack: "dev",
    project: "app",
    types: "acme:Net$pulumi-nodejs:dynamic/compute:Vpc",
    name: "app",
  });
  expect(parseUrn("not a urn")).toBeUndefined();
});

const VPC = "pulumi-nodejs:dynamic/compute:Vpc";
const stackUrn = (stack: string) => `urn:pulumi:${stack}::app::pulumi:pulumi:Stack::app-${stack}`;

test("the alias of a rename is the old name; of a move, the old parent in a form that holds in every stack", () => {
  expect(aliasFor(urn("dev", "app"), urn("dev", "network"))).toBe('aliases: [{ name: "app" }]');
  // Out of the stack's top level into a component: never the literal URN (its stack's name is wrong in staging).
  const moved = urn("dev", "app", `acme:Net$${VPC}`);
  expect(aliasFor(urn("dev", "app"), moved)).toBe("aliases: [{ parent: pulumi.rootStackResource }]");
  expect(aliasFor(urn("dev", "app"), moved)).not.toContain("urn:pulumi");
  // Moved and renamed.
  expect(aliasFor(urn("dev", "app"), urn("dev", "vpc", `acme:Net$${VPC}`))).toBe(
    'aliases: [{ name: "app", parent: pulumi.rootStackResource }]',
  );
  // Out of a component (its own parent from the checkpoint), to the top level or into another component.
  const net = urn("dev", "net", "acme:Net");
  const entries = [
    { urn: net, type: "acme:Net", parent: stackUrn("dev") },
    { urn: urn("dev", "app", `acme:Net$${VPC}`), type: VPC, id: "10", parent: net },
  ];
  expect(aliasFor(urn("dev", "app", `acme:Net$${VPC}`), urn("dev", "app"), entries)).toBe(
    'aliases: [{ parent: pulumi.createUrn("net", "acme:Net") }]',
  );
  expect(aliasFor(urn("dev", "app", `acme:Net$${VPC}`), urn("dev", "app", `acme:Zone$${VPC}`), entries)).toBe(
    'aliases: [{ parent: pulumi.createUrn("net", "acme:Net") }]',
  );
  // A component inside a component: the chain of parents, each by its name and type.
  const inner = urn("dev", "inner", "acme:Net$acme:Inner");
  const nested = [
    ...entries,
    { urn: inner, type: "acme:Inner", parent: net },
    { urn: urn("dev", "db", `acme:Net$acme:Inner$${VPC}`), type: VPC, parent: inner },
  ];
  expect(aliasFor(urn("dev", "db", `acme:Net$acme:Inner$${VPC}`), urn("dev", "db"), nested)).toBe(
    'aliases: [{ parent: pulumi.createUrn("inner", "acme:Inner", pulumi.createUrn("net", "acme:Net")) }]',
  );
  // A component's chain the checkpoint does not hold: the old URN, the one form left.
  const orphan = urn("dev", "db", `acme:Net$acme:Inner$${VPC}`);
  expect(aliasFor(orphan, urn("dev", "db"))).toBe(`aliases: [${JSON.stringify(orphan)}]`);
});

test("the alias in the program's language: Pulumi YAML, Python and Go write what TypeScript writes, each in its own form", () => {
  const net = urn("dev", "net", "acme:Net");
  const inner = urn("dev", "inner", "acme:Net$acme:Inner");
  const entries = [
    { urn: net, type: "acme:Net", parent: stackUrn("dev") },
    { urn: inner, type: "acme:Inner", parent: net },
    { urn: urn("dev", "db", `acme:Net$acme:Inner$${VPC}`), type: VPC, parent: inner },
  ];
  const renamed = aliasOf(urn("dev", "app"), urn("dev", "network"));
  const toTop = aliasOf(urn("dev", "app"), urn("dev", "vpc", `acme:Net$${VPC}`));
  const outOfNested = aliasOf(urn("dev", "db", `acme:Net$acme:Inner$${VPC}`), urn("dev", "db"), entries);
  const orphan = aliasOf(urn("dev", "db", `acme:Gone$${VPC}`), urn("dev", "db"));
  const forms = (language: ProgramLanguage) => [renamed, toTop, outOfNested, orphan].map((a) => aliasText(a, language));
  // Before: every door advised TypeScript's `pulumi.rootStackResource`, which a YAML program cannot write.
  expect(forms("yaml")).toEqual([
    'aliases: [{ name: "app" }]',
    'aliases: [{ name: "app", noParent: true }]',
    'aliases: [{ parent: "urn:pulumi:${pulumi.stack}::${pulumi.project}::acme:Net$acme:Inner::inner" }]',
    `aliases: [${JSON.stringify(urn("dev", "db", `acme:Gone$${VPC}`))}]`,
  ]);
  expect(forms("python")).toEqual([
    'aliases=[pulumi.Alias(name="app")]',
    'aliases=[pulumi.Alias(name="app", parent=pulumi.ROOT_STACK_RESOURCE)]',
    'aliases=[pulumi.Alias(parent=pulumi.create_urn("inner", "acme:Inner", pulumi.create_urn("net", "acme:Net")))]',
    `aliases=[${JSON.stringify(urn("dev", "db", `acme:Gone$${VPC}`))}]`,
  ]);
  expect(forms("go")).toEqual([
    'pulumi.Aliases([]pulumi.Alias{{Name: pulumi.String("app")}})',
    'pulumi.Aliases([]pulumi.Alias{{Name: pulumi.String("app"), NoParent: pulumi.Bool(true)}})',
    'pulumi.Aliases([]pulumi.Alias{{ParentURN: pulumi.URN("urn:pulumi:" + ctx.Stack() + "::" + ctx.Project() + "::acme:Net$acme:Inner::inner")}})',
    `pulumi.Aliases([]pulumi.Alias{{URN: pulumi.URN(${JSON.stringify(urn("dev", "db", `acme:Gone$${VPC}`))})}})`,
  ]);
  // The message of a rename in a Python program.
  const message = clashMessage(
    vpc,
    'label "x"',
    "label",
    "10",
    { where: "this stack", urn: urn("dev", "app"), resource: "app" },
    urn("dev", "network"),
    false,
    "python",
  );
  expect(message).toContain('add aliases=[pulumi.Alias(name="app")] to this resource\'s options');
});

test("the program's language is its project's runtime, from the plugin's folder or one below the project's", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "language-"));
  try {
    const file = path.join(dir, "Pulumi.yaml");
    fs.writeFileSync(file, "name: app\nruntime: yaml\n");
    expect(runtimeOf(file)).toBe("yaml");
    fs.writeFileSync(file, "name: app\nruntime:\n  options:\n    toolchain: pip\n  name: python\n");
    expect(runtimeOf(file)).toBe("python");
    fs.writeFileSync(file, "name: app\nruntime: dotnet\n");
    expect(runtimeOf(file)).toBeUndefined();
    fs.writeFileSync(file, 'name: app\nruntime: "go"\n');
    fs.mkdirSync(path.join(dir, "src"));
    expect(projectLanguage(path.join(dir, "src"))).toBe("go");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a move: every resource of this stack beside the moved one that the run has not checked is named with it", async () => {
  const net = urn("dev", "net", "acme:Net");
  process.env.PULUMI_BACKEND_URL = backend({
    dev: [
      { urn: stackUrn("dev"), type: "pulumi:pulumi:Stack" },
      { urn: "urn:pulumi:dev::app::pulumi:providers:compute::default", type: "pulumi:providers:compute", id: "p" },
      { urn: urn("dev", "app"), type: VPC, id: "10", parent: stackUrn("dev") },
      {
        urn: urn("dev", "data", "pulumi-nodejs:dynamic/compute:VpcSubnet"),
        type: "pulumi-nodejs:dynamic/compute:VpcSubnet",
        id: "11",
        parent: stackUrn("dev"),
      },
      { urn: urn("dev", "www", "compute:index:DomainRecord"), type: "compute:index:DomainRecord", id: "12", parent: stackUrn("dev") },
      { urn: urn("dev", "kept"), type: VPC, id: "13", parent: stackUrn("dev") },
      { urn: net, type: "acme:Net", parent: stackUrn("dev") },
      { urn: urn("dev", "inside", `acme:Net$${VPC}`), type: VPC, id: "14", parent: net },
    ],
  });
  const ctx = servingContext();
  // `kept` was checked at its old URN in this run: it stayed at the top level.
  holdings(ctx).checked(urn("dev", "kept"));
  const holder = await holderOf(vpc, ctx, "10", urn("dev", "app", `acme:Zone$${VPC}`));
  expect(holder).toEqual({
    where: "this stack",
    urn: urn("dev", "app"),
    resource: "app",
    alias: { parent: { root: true } },
    alongside: [
      { resource: "data", kind: "VpcSubnet", alias: { parent: { root: true } } },
      { resource: "www", kind: "DomainRecord", alias: { parent: { root: true } } },
    ],
  });
  const message = clashMessage(vpc, 'label "x"', "label", "10", holder, urn("dev", "app", `acme:Zone$${VPC}`));
  expect(message).toBe(
    'label "x" is taken by VPC 10, which this stack manages as resource "app". If this resource is "app" moved into or out of a ' +
      "component, add aliases: [{ parent: pulumi.rootStackResource }] to this resource's options: the VPC stays and the next preview " +
      "plans no create and no delete. The preview stops at the first resource it refuses, so here are the others: each resource of " +
      'this stack that was beside "app" and is not yet seen in this run needs the same alias if it moved too: "data" (VpcSubnet), ' +
      '"www" (DomainRecord). With them all, one preview shows the move. Otherwise change this resource\'s label ' +
      "(node_modules/pulumi-compute/docs/guides/refactoring.md).",
  );
  expect(message).not.toContain("urn:pulumi");
  expect(message).not.toContain("adoptId");
  expect(message).not.toContain("recover");
  // A rename (no parent changed) names no other resource.
  expect(await holderOf(vpc, ctx, "10", urn("dev", "network"))).toMatchObject({ alias: { name: "app" }, alongside: [] });
});

test("who manages an object: the asking resource itself, this stack under another name, another stack, nobody", async () => {
  process.env.PULUMI_BACKEND_URL = backend({
    dev: [
      { urn: urn("dev", "app"), type: "pulumi-nodejs:dynamic/compute:Vpc", id: "10" },
      { urn: urn("dev", "zone"), type: "compute:index:Domain", id: "20" },
    ],
    staging: [{ urn: urn("staging", "app"), type: "compute:index:Vpc", id: "30" }],
  });
  const ctx = servingContext();
  expect(await holderOf(vpc, ctx, "10", urn("dev", "network"))).toEqual({
    where: "this stack",
    urn: urn("dev", "app"),
    resource: "app",
    alias: { name: "app" },
    alongside: [],
  });
  expect(await holderOf(vpc, ctx, "30", urn("dev", "app"))).toEqual({
    where: "another stack",
    stack: "staging",
    urn: urn("staging", "app"),
    resource: "app",
  });
  // A Domain's id 20 is no VPC's; the resource that holds it is told so (a replacement checked again).
  expect(await holderOf(vpc, ctx, "20", urn("dev", "network"))).toEqual({ where: "no stack" });
  expect(await holderOf(vpc, ctx, "10", urn("dev", "app"))).toEqual({ where: "this resource" });
});

test("unknown, said why: no URN, no backend, a backend that does not hold this stack", async () => {
  const ctx = servingContext();
  expect(await holderOf(vpc, ctx, "10", undefined)).toMatchObject({ where: "unknown", why: expect.stringContaining("URN") });
  process.env.PULUMI_BACKEND_URL = backend({ other: [] });
  expect(await holderOf(vpc, ctx, "10", urn("dev", "app"))).toEqual({
    where: "unknown",
    why: "the backend the provider found does not hold this stack",
  });
  process.env.PULUMI_BACKEND_URL = "s3://bucket";
  expect(await holderOf(vpc, servingContext(), "10", urn("dev", "app"))).toMatchObject({ where: "unknown" });
});

test("the backend as the CLI finds it: the variable, the project's backend.url (from a subfolder too), the login", async () => {
  const project = path.join(diy.dir, "project");
  fs.mkdirSync(path.join(project, "src"), { recursive: true });
  fs.writeFileSync(path.join(project, "Pulumi.yaml"), "name: app\nruntime: nodejs\nbackend:\n  url: file:///srv/state\n");
  expect(currentBackendUrl(path.join(project, "src"), { PULUMI_BACKEND_URL: "file:///env" })).toBe("file:///env");
  expect(currentBackendUrl(path.join(project, "src"), {})).toBe("file:///srv/state");
  const home = path.join(diy.dir, "home");
  fs.mkdirSync(home);
  fs.writeFileSync(path.join(home, "credentials.json"), JSON.stringify({ current: "file:///logged-in" }));
  expect(currentBackendUrl(home, { PULUMI_HOME: home })).toBe("file:///logged-in");
  expect(await readStackResources(`file://${diy.dir}`, "organization/app/none")).toEqual([]);
});

test("the clash's message by who holds the object, in the order the issue asks", () => {
  const key = 'label "app-net"';
  const here = clashMessage(
    vpc,
    key,
    "label",
    "10",
    { where: "this stack", urn: urn("dev", "app"), resource: "app" },
    urn("dev", "network"),
  );
  expect(here).toBe(
    'label "app-net" is taken by VPC 10, which this stack manages as resource "app". If this resource is "app" renamed, ' +
      `add aliases: [{ name: "app" }] to this resource's options (or run \`pulumi state rename '${urn("dev", "app")}' network\`): ` +
      "the VPC stays and the next preview plans no create and no delete. Otherwise change this resource's label " +
      "(node_modules/pulumi-compute/docs/guides/refactoring.md).",
  );
  const other = clashMessage(
    vpc,
    key,
    "label",
    "10",
    { where: "another stack", stack: "dev", urn: urn("dev", "app"), resource: "app" },
    urn("staging", "app"),
  );
  expect(other).toContain('which stack "dev" manages as resource "app". Do not set adoptId to it');
  expect(other).toContain("${pulumi.getStack()}");
  expect(other).not.toMatch(/adoptId: 10/);
  // Nobody of this backend: what the provider cannot see is said, and an adoption's delete releases.
  const nobody = clashMessage(vpc, key, "label", "10", { where: "no stack" }, urn("dev", "app"));
  expect(nobody).toBe(
    'label "app-net" is taken by VPC 10, which no stack of this backend manages. The provider reads only this backend\'s stacks: ' +
      "a stack of another backend (a colleague's `pulumi login --local`, another team's bucket) may manage it, and then must not be " +
      "adopted: give each stack its own value (`${pulumi.getStack()}` in it), or read that object with a data function instead of " +
      "declaring it. If it was made by hand, set adoptId: 10 on this resource to manage it, then `pulumi up`: an adopted VPC is " +
      "released, not deleted, when this resource is deleted or its stack destroyed, unless the resource also sets deleteAdopted: true. " +
      "Or change this resource's label (node_modules/pulumi-compute/docs/guides/refactoring.md).",
  );
  // An object exactly as the inputs declare it, nobody's: an interrupted run's create, which recover hands to the stack.
  const interrupted = clashMessage(vpc, key, "label", "10", { where: "no stack" }, urn("dev", "app"), true);
  expect(interrupted.indexOf("run `npx pulumi-compute recover`")).toBeGreaterThan(0);
  expect(interrupted.indexOf("run `npx pulumi-compute recover`")).toBeLessThan(interrupted.indexOf("set adoptId: 10"));
  const unknown = clashMessage(vpc, key, "label", "10", { where: "unknown", why: "no backend" }, undefined);
  // All three, the ones that keep an object first.
  expect(unknown.indexOf("aliases")).toBeLessThan(unknown.indexOf("never set adoptId"));
  expect(unknown.indexOf("never set adoptId")).toBeLessThan(unknown.indexOf("set adoptId: 10"));
});

test("an adoptId of another stack's object is refused; of this stack's or nobody's, taken", async () => {
  process.env.PULUMI_BACKEND_URL = backend({
    dev: [{ urn: urn("dev", "app"), type: "pulumi-nodejs:dynamic/compute:Vpc", id: "10" }],
    staging: [{ urn: urn("staging", "old"), type: "pulumi-nodejs:dynamic/compute:Vpc", id: "11" }],
  });
  const ctx = servingContext();
  const refused = await adoptClash(vpc, ctx, {}, { label: "x", region: "us-iad", adoptId: 10 }, urn("staging", "app"));
  expect(refused).toEqual([{ property: "adoptId", reason: expect.stringContaining('VPC 10 is managed by stack "dev" as resource "app"') }]);
  expect(await adoptClash(vpc, ctx, {}, { label: "x", region: "us-iad", adoptId: 11 }, urn("staging", "app"))).toEqual([]);
  expect(await adoptClash(vpc, ctx, {}, { label: "x", region: "us-iad", adoptId: 12 }, urn("staging", "app"))).toEqual([]);
  // Already adopted: not read again.
  expect(await adoptClash(vpc, ctx, { adoptId: 10 }, { label: "x", region: "us-iad", adoptId: 10 }, urn("staging", "app"))).toEqual([]);
});

test("another program's stack in the same backend manages it: named as project/stack", async () => {
  process.env.PULUMI_BACKEND_URL = backend({ dev: [] });
  const file = path.join(diy.dir, ".pulumi/stacks/billing/prod.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const other = "urn:pulumi:prod::billing::compute:index:Vpc::net";
  fs.writeFileSync(file, JSON.stringify({ checkpoint: { latest: { resources: [{ urn: other, type: "compute:index:Vpc", id: "40" }] } } }));
  expect(await holderOf(vpc, servingContext(), "40", urn("dev", "app"))).toEqual({
    where: "another stack",
    stack: "billing/prod",
    urn: other,
    resource: "net",
  });
});
