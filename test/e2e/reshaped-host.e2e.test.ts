/**
 * The changes to Pulumi's dynamic provider host fail closed, through the real engine (issue 39).
 * A project with the packed package installed and its launcher declared; for each member of the
 * host that preview support, detailed diffs, ignoreChanges, status lines or the lean gRPC serving
 * use, a copy of the project whose `@pulumi/pulumi` lacks it: renamed consistently wherever
 * Pulumi's own code uses it (so the host still works, as a reshaped release would), or removed
 * where only our changes use it. Every time:
 *
 * - `up`, a `preview` of an in-place change, and `destroy` succeed;
 * - each says exactly one warning naming the part that stepped aside and the member it missed;
 * - the preview behaves as plain Pulumi for the part that stepped aside: without preview support,
 *   a record reading the VPC's `created` plans an update that `up` would not make; without
 *   detailed diffs, the VPC's update carries no detailed diff.
 *
 * And the switches: `PULUMI_DISABLE_PROVIDER_PREVIEW=true` and `compute:previewSupport: false`
 * give plain previews without a warning.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace, type EngineEvent, type Stack } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { pulumiCommand } from "../../provider/stack/pulumi-cli";
import { LOSES, type StepAside } from "../../provider/host/notice";
import { REPO_ROOT, sharedKeyService, skipReads } from "../support/engine";
import { UserShell } from "../support/user-shell";
import { installedNewProject } from "../support/installed-project";

jest.setTimeout(1_800_000);

/** Edits of the installed packages' files: `global` in every file of the three, or in one `file` (optionally only inside one host method). */
type Edit = { pattern: RegExp; to: string } & ({ global: true } | { file: string; method?: string });

interface Variant {
  /** What the host lacks, as the warning names it. */
  missing: string;
  /** Which parts step aside. */
  parts: Array<StepAside["part"]>;
  edits: Edit[];
}

/** A name renamed wherever Pulumi's packages use it, as a reshaped release would. */
const renamed = (name: string): Edit => ({ global: true, pattern: new RegExp(`\\b${name}\\b`, "g"), to: `${name}V2` });
/** A member of one message of the protocol renamed there only (nothing of Pulumi's uses it on that message). */
const member = (message: string, name: string): Edit => ({
  file: "@pulumi/pulumi/proto/provider_pb.js",
  pattern: new RegExp(`(\\.${message}\\.prototype\\.)${name} = `),
  to: `$1${name}V2 = `,
});
/** A method of the host's provider service renamed in the host and in the service's definition. */
const hostMethod = (name: string): Edit[] => [
  {
    file: "@pulumi/pulumi/cmd/dynamic-provider/index.js",
    pattern: new RegExp(`async ${name}\\(call, callback\\)`),
    to: `async ${name}V2(call, callback)`,
  },
  { file: "@pulumi/pulumi/proto/provider_grpc_pb.js", pattern: new RegExp(`\\n${name}: \\{`), to: `\n${name}V2: {` },
];

const PREVIEW = ["preview support"] as Variant["parts"];
const DIFF = ["detailed diffs"] as Variant["parts"];
const STATUS = ["status lines"] as Variant["parts"];
const PROTOCOL = (what: string) => `the protocol has no ${what}`;

const VARIANTS: Variant[] = [
  { missing: PROTOCOL("ConfigureRequest.getArgs"), parts: PREVIEW, edits: [renamed("getArgs")] },
  { missing: PROTOCOL("ConfigureResponse.setSupportspreview"), parts: PREVIEW, edits: [renamed("setSupportspreview")] },
  { missing: PROTOCOL("CreateRequest.getPreview"), parts: PREVIEW, edits: [member("CreateRequest", "getPreview")] },
  { missing: PROTOCOL("CreateRequest.getProperties"), parts: PREVIEW, edits: [renamed("getProperties")] },
  { missing: PROTOCOL("CreateResponse.setProperties"), parts: PREVIEW, edits: [renamed("setProperties")] },
  { missing: PROTOCOL("UpdateRequest.getPreview"), parts: PREVIEW, edits: [member("UpdateRequest", "getPreview")] },
  {
    missing: PROTOCOL("UpdateRequest.getId"),
    parts: PREVIEW,
    edits: [
      member("UpdateRequest", "getId"),
      { file: "@pulumi/pulumi/cmd/dynamic-provider/index.js", method: "update", pattern: /req\.getId\(\)/, to: "req.getIdV2()" },
    ],
  },
  { missing: PROTOCOL("UpdateRequest.getOlds"), parts: PREVIEW, edits: [renamed("getOlds")] },
  // The news of a diff and an update carry the resource's ignoreChanges (`provider/host/ignore-changes.ts`).
  { missing: PROTOCOL("UpdateRequest.getNews"), parts: ["preview support", "ignoreChanges"], edits: [renamed("getNews")] },
  {
    missing: PROTOCOL("UpdateResponse.setProperties"),
    parts: PREVIEW,
    edits: [
      member("UpdateResponse", "setProperties"),
      {
        file: "@pulumi/pulumi/cmd/dynamic-provider/index.js",
        method: "update",
        pattern: /resp\.setProperties\(/,
        to: "resp.setPropertiesV2(",
      },
    ],
  },
  { missing: "the host has no configure method", parts: PREVIEW, edits: hostMethod("configure") },
  { missing: "the host has no create method", parts: PREVIEW, edits: hostMethod("create") },
  { missing: "the host has no update method", parts: PREVIEW, edits: hostMethod("update") },
  { missing: "protobuf's Struct has no fromJavaScript/toJavaScript", parts: PREVIEW, edits: [renamed("fromJavaScript")] },
  { missing: "protobuf's Struct has no fromJavaScript/toJavaScript", parts: PREVIEW, edits: [renamed("toJavaScript")] },
  {
    missing: "gRPC's Server has no addService",
    parts: ["preview support", "status lines", "lean gRPC serving"],
    edits: [renamed("addService")],
  },
  {
    missing: PROTOCOL("ResourceProviderService"),
    parts: ["preview support", "status lines", "lean gRPC serving"],
    edits: [renamed("ResourceProviderService")],
  },
  // The host's service on this package's own gRPC (`provider/host/transport.ts`); grpc-js serves it otherwise.
  { missing: "gRPC's Server has no bindAsync", parts: ["lean gRPC serving"], edits: [renamed("bindAsync")] },
  {
    missing: "the provider service's definition of check has no requestStream",
    parts: ["lean gRPC serving"],
    edits: [
      {
        file: "@pulumi/pulumi/proto/provider_grpc_pb.js",
        pattern: /(\ncheck: \{\n {4}path: '[^']*',\n) {4}requestStream: false,\n/,
        to: "$1",
      },
    ],
  },
  {
    missing: PROTOCOL("DiffRequest.getIgnorechangesList"),
    parts: ["ignoreChanges"],
    edits: [member("DiffRequest", "getIgnorechangesList")],
  },
  { missing: PROTOCOL("DiffResponse.setChanges"), parts: DIFF, edits: [renamed("setChanges")] },
  { missing: PROTOCOL("DiffResponse.setDiffsList"), parts: DIFF, edits: [renamed("setDiffsList")] },
  { missing: PROTOCOL("DiffResponse.setHasdetaileddiff"), parts: DIFF, edits: [renamed("setHasdetaileddiff")] },
  { missing: PROTOCOL("DiffResponse.getDetaileddiffMap"), parts: DIFF, edits: [renamed("getDetaileddiffMap")] },
  { missing: PROTOCOL("PropertyDiff.setKind"), parts: DIFF, edits: [renamed("setKind")] },
  { missing: PROTOCOL("PropertyDiff.setInputdiff"), parts: DIFF, edits: [renamed("setInputdiff")] },
  { missing: PROTOCOL("DiffResponse.DiffChanges.DIFF_SOME"), parts: DIFF, edits: [renamed("DIFF_SOME")] },
  {
    missing: PROTOCOL("PropertyDiff.Kind.ADD"),
    parts: DIFF,
    edits: [{ global: true, pattern: /PropertyDiff\.Kind\b/g, to: "PropertyDiff.KindV2" }],
  },
  { missing: PROTOCOL("Engine client"), parts: STATUS, edits: [renamed("EngineClient")] },
  { missing: PROTOCOL("LogRequest.setSeverity"), parts: STATUS, edits: [renamed("setSeverity")] },
  { missing: PROTOCOL("LogRequest.setMessage"), parts: STATUS, edits: [renamed("setMessage")] },
  { missing: PROTOCOL("LogRequest.setUrn"), parts: STATUS, edits: [renamed("setUrn")] },
  { missing: PROTOCOL("LogRequest.setEphemeral"), parts: STATUS, edits: [renamed("setEphemeral")] },
  {
    missing: PROTOCOL("LogSeverity.WARNING"),
    parts: STATUS,
    edits: [
      { global: true, pattern: /LogSeverity\.WARNING\b/g, to: "LogSeverity.WARNINGV2" },
      { file: "@pulumi/pulumi/proto/engine_pb.js", pattern: /\bWARNING: 2\b/, to: "WARNINGV2: 2" },
    ],
  },
  { missing: PROTOCOL("CheckRequest.getUrn"), parts: STATUS, edits: [member("CheckRequest", "getUrn")] },
];

/** The packages whose files a global rename touches (Pulumi's SDK without its vendored TypeScript, gRPC, protobuf). */
const PACKAGES = ["@pulumi/pulumi", "@grpc/grpc-js", "google-protobuf"];

let base: string;
let installed: string;
let emulator: RunningEmulator;
let serial = 0;

/** The program: a VPC and a record that reads its `created`, which an in-place update of the VPC keeps. */
const PROGRAM = `const compute = require("pulumi-compute");
const zone = process.env.PC_ZONE;
const vpc = new compute.Vpc("net", { label: process.env.PC_LABEL, region: "us-iad" });
const domain = new compute.Domain("zone", { domain: zone, type: "master", soaEmail: "admin@" + zone });
new compute.DomainRecord("stamp", { domainId: domain.id, type: "TXT", name: "stamp", target: vpc.created });
`;

beforeAll(async () => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "pc-reshaped-"));
  const user = new UserShell(base);
  installed = path.join(base, "installed");
  fs.cpSync(path.join(REPO_ROOT, "examples/new-project"), installed, { recursive: true });
  await installedNewProject(installed, user.env);
  const yaml = fs.readFileSync(path.join(installed, "Pulumi.yaml"), "utf8");
  fs.writeFileSync(
    path.join(installed, "Pulumi.yaml"),
    yaml.replace("runtime: nodejs\n", "runtime:\n  name: nodejs\n  options:\n    typescript: false\nmain: index.js\n"),
  );
  fs.writeFileSync(path.join(installed, "index.js"), PROGRAM);
  emulator = await startEmulator({ port: 0, timeScale: 300 });
});

afterAll(async () => {
  await emulator?.close();
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

/** Every `.js` file of the packages a global rename touches. */
function packageFiles(project: string): string[] {
  return PACKAGES.flatMap((name) =>
    (fs.readdirSync(path.join(project, "node_modules", name), { recursive: true }) as string[])
      .filter((file) => file.endsWith(".js") && !file.split(path.sep).includes("vendor") && !file.split(path.sep).includes("node_modules"))
      .map((file) => path.join("node_modules", name, file)),
  );
}

/** Rewrites a file of a hard-linked copy without touching the original (a new inode). */
function rewrite(file: string, change: (text: string) => string): boolean {
  const text = fs.readFileSync(file, "utf8");
  const changed = change(text);
  if (changed === text) return false;
  fs.rmSync(file);
  fs.writeFileSync(file, changed);
  return true;
}

/** The body of one method of the host's provider service, changed by `change`. */
function inMethod(text: string, method: string, change: (body: string) => string): string {
  const start = text.indexOf(`    async ${method}(call, callback) {`);
  const end = text.indexOf("\n    }\n", start);
  if (start < 0 || end < 0) throw new Error(`the host has no ${method} method to edit`);
  return text.slice(0, start) + change(text.slice(start, end)) + text.slice(end);
}

/** The copy of the installed project the variants are made in, and the files the last variant rewrote (from the project's folder). */
const copy = { dir: "", rewritten: [] as string[] };

/**
 * The installed project (a copy of hard links) with `edits` applied; fails when an edit changes
 * nothing. Every variant is made in the same copy, which first takes back the installed files the
 * last one rewrote and loses what its stack left: a copy of the whole `node_modules` per variant
 * cost more CPU than the variant's run, and Node's compile cache, which knows a module by its path,
 * compiled all of Pulumi's SDK again in a folder of its own, where here only the rewritten files change.
 */
function reshapedProject(edits: Edit[]): string {
  if (!copy.dir) {
    copy.dir = path.join(base, "variant");
    execFileSync("cp", ["-al", installed, copy.dir]);
  }
  // What else the last variant left in the project goes too, but the stacks (their state, empty
  // after each variant's destroy, and their settings), which the next variant runs in again.
  const own = new Set([...fs.readdirSync(installed), ".state", ...[...stacks.values()].map((stack) => `Pulumi.${stack.name}.yaml`)]);
  for (const entry of fs.readdirSync(copy.dir)) if (!own.has(entry)) fs.rmSync(path.join(copy.dir, entry), { recursive: true });
  for (const file of copy.rewritten.splice(0)) {
    fs.rmSync(path.join(copy.dir, file));
    fs.linkSync(path.join(installed, file), path.join(copy.dir, file));
  }
  for (const edit of edits) {
    const files = "global" in edit ? packageFiles(copy.dir) : [path.join("node_modules", edit.file)];
    const changed = files.filter((file) =>
      rewrite(path.join(copy.dir, file), (text) =>
        "method" in edit && edit.method
          ? inMethod(text, edit.method, (body) => body.replace(edit.pattern, edit.to))
          : text.replace(edit.pattern, edit.to),
      ),
    );
    if (changed.length === 0) throw new Error(`the edit ${String(edit.pattern)} changed nothing: re-read the pinned host`);
    copy.rewritten.push(...changed.filter((file) => !copy.rewritten.includes(file)));
  }
  return copy.dir;
}

interface Operation {
  /** `name: op` of the program's resources that change. */
  steps: Record<string, string>;
  /** Whether the VPC's step carried a detailed diff. */
  detailed: boolean;
  /** Every diagnostic this package said, in order, with where it went. */
  said: Array<{ severity: string; urn: string; message: string }>;
}

function operation(events: EngineEvent[]): Operation {
  const steps: Record<string, string> = {};
  let detailed = false;
  for (const e of events) {
    const meta = e.resourcePreEvent?.metadata;
    if (!meta || meta.urn.includes("::pulumi:")) continue;
    const name = meta.urn.slice(meta.urn.lastIndexOf("::") + 2);
    if (meta.op !== "same") steps[name] = meta.op;
    if (name === "net" && meta.detailedDiff) detailed = Object.keys(meta.detailedDiff).length > 0;
  }
  // Lines printed to stderr arrive one diagnostic each: this package's are the notice's first line and those after it.
  const said: Operation["said"] = [];
  for (const { diagnosticEvent: d } of events) {
    if (!d) continue;
    const continues =
      said.length > 0 && d.severity === "info#err" && said.at(-1)!.severity === "info#err" && !d.message.startsWith("pulumi-compute:");
    if (continues) said.at(-1)!.message += d.message;
    else if (d.message.startsWith("pulumi-compute:")) said.push({ severity: d.severity, urn: d.urn ?? "", message: d.message });
  }
  return { steps, detailed, said };
}

/**
 * The stack of each config, made once in the variants' copy and kept there: every variant's `up`
 * starts from the empty stack the last one's `destroy` left, as from a new one, without a
 * `stack init` and a `config set-all` of its own (two CLI starts a variant). A variant whose life
 * fails leaves its stack behind for a new one, so what it left cannot fail the next.
 */
const stacks = new Map<string, Stack>();
let made = 0;
/** The folder of the stacks' state in the variants' copy. */
const stateDir = (project: string) => path.join(project, ".state");

async function stackFor(project: string, config: Record<string, string>): Promise<Stack> {
  const key = JSON.stringify(config);
  const kept = stacks.get(key);
  if (kept) return kept;
  fs.mkdirSync(stateDir(project), { recursive: true });
  const keys = await sharedKeyService();
  // Every check reads the operations' events: their outputs and summaries are not read.
  const stack = skipReads(
    await LocalWorkspace.createStack(
      { stackName: `dev${made++ || ""}`, workDir: project },
      {
        pulumiCommand: await pulumiCommand(),
        secretsProvider: keys.secretsProvider,
        envVars: { ...keys.env, PULUMI_BACKEND_URL: `file://${stateDir(project)}` },
      },
    ),
    { outputs: true, summary: true },
  );
  await stack.setAllConfig({
    "compute:apiUrl": { value: emulator.url },
    "compute:token": { value: emulator.token, secret: true },
    ...Object.fromEntries(Object.entries(config).map(([key, value]) => [key, { value }])),
  });
  stacks.set(key, stack);
  return stack;
}

/** up, a preview of an in-place change of the VPC's label, destroy, in `project` through the real engine. */
async function life(project: string, config: Record<string, string> = {}, env: Record<string, string> = {}) {
  const zone = `v${++serial}.example.com`;
  const stack = await stackFor(project, config);
  const keys = await sharedKeyService();
  stack.workspace.envVars = {
    ...keys.env,
    PULUMI_BACKEND_URL: `file://${stateDir(project)}`,
    PC_ZONE: zone,
    PC_LABEL: "net-one",
    ...env,
  };
  const run = async (op: (o: { onEvent: (e: EngineEvent) => void }) => Promise<unknown>) => {
    const events: EngineEvent[] = [];
    await op({ onEvent: (e) => events.push(e) });
    return operation(events);
  };
  try {
    const up = await run((o) => stack.up(o));
    stack.workspace.envVars.PC_LABEL = "net-two";
    const before = emulator.control.listRequests().length;
    const preview = await run((o) => stack.preview({ ...o, diff: true }));
    const previewWrites = emulator.control
      .listRequests()
      .slice(before)
      .filter((r) => r.method !== "GET");
    const destroy = await run((o) => stack.destroy(o));
    return { up, preview, destroy, previewWrites };
  } catch (error) {
    stacks.delete(JSON.stringify(config));
    throw error;
  }
}

const EXACT = { net: "update" };
const PLAIN = { net: "update", stamp: "update" };

test("the pinned host: exact previews with detailed diffs, and no warning", async () => {
  const { up, preview, destroy, previewWrites } = await life(reshapedProject([]));
  expect(preview.steps).toEqual(EXACT);
  expect(preview.detailed).toBe(true);
  expect([...up.said, ...preview.said, ...destroy.said]).toEqual([]);
  expect(previewWrites).toEqual([]);
});

test.each(VARIANTS.map((v) => [v.missing, v.parts.join(" and "), v] as const))(
  "%s: %s off, said once per run; preview, up and destroy succeed as plain Pulumi",
  async (_missing, _parts, variant) => {
    const { up, preview, destroy, previewWrites } = await life(reshapedProject(variant.edits));
    for (const [name, ran] of Object.entries({ up, preview, destroy })) {
      expect({ name, said: ran.said.length }).toEqual({ name, said: 1 });
      const [said] = ran.said;
      expect(said!.message).toContain(variant.missing);
      for (const part of variant.parts) expect(said!.message).toContain(`${part}: `);
      for (const part of variant.parts) expect(said!.message.replace(/\s+/g, " ")).toContain(LOSES[part].slice(1, 40));
      // On the first resource's row when the host's requests could be followed; else for the run.
      if (!variant.parts.includes("status lines")) expect(said!.urn).toMatch(/::pulumi-nodejs:dynamic\/compute:/);
    }
    expect(preview.steps).toEqual(variant.parts.includes("preview support") ? PLAIN : EXACT);
    expect(preview.detailed).toBe(!variant.parts.includes("detailed diffs"));
    expect(previewWrites).toEqual([]);
  },
);

test.each([
  ["PULUMI_DISABLE_PROVIDER_PREVIEW=true", {}, { PULUMI_DISABLE_PROVIDER_PREVIEW: "true" }],
  ["compute:previewSupport false", { "compute:previewSupport": "false" }, {}],
])("%s: Pulumi's plain previews, on purpose, without a warning", async (_name, config, env) => {
  const { up, preview, destroy, previewWrites } = await life(reshapedProject([]), config, env);
  expect(preview.steps).toEqual(PLAIN);
  expect(preview.detailed).toBe(true);
  expect([...up.said, ...preview.said, ...destroy.said]).toEqual([]);
  expect(previewWrites).toEqual([]);
});
