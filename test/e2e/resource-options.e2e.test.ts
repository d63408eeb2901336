/**
 * Pulumi's resource options through both doors (the generated classes, and `compute:index:<Kind>`
 * through the provider plugin), through the real engine against the emulator over HTTP, each with
 * the requests it sent. One stack life per door, step by step, each step a separate assertion:
 * 1. up: `dependsOn` holds a firewall back until its database is ready; `import` adopts a VPC
 *    made by hand without a write; the next preview is empty.
 * 2. a rename with `aliases`, a move into a component with `aliases`, `ignoreChanges` (no refresh),
 *    `replaceOnChanges`, `deleteBeforeReplace`, and replacements that keep a unique label (a
 *    database's region; another's engine version and cluster size; a VPC's region with its
 *    subnet): exactly the planned steps, the writes of the replacements alone, one object per
 *    label at the end.
 * 3. `protect`: removing the resource fails at preview, without a write.
 * 4. the move back out of the component, `protect` lifted, a `retainOnDelete` resource removed:
 *    three changes, no write, the retained VPC still in the cloud.
 * 5. `--target` and `--exclude`: one write each, the rest left for the next up; `--replace` of a
 *    VPC with `deleteBeforeReplace` deletes first.
 * Beside it: `import` and `adoptId` on one TypeScript class refused at preview, and `customTimeouts`
 * (honoured by the plugin in its requests' deadlines; the classes warn on the resource's row); and
 * through each door, a create past its deadline (the classes' `timeouts` input, the plugin's
 * `customTimeouts`) kept in state with its init error, so destroy deletes it.
 */
import * as pulumi from "@pulumi/pulumi";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { createTestStack, eventRecorder, type TestStack } from "../support/engine";
import { DOORS, resourceThrough, type Door } from "../support/plugin-resource";
import { writesSince } from "../support/requests";

jest.setTimeout(900_000);

const REGION = "us-iad";
const OTHER = "us-ord";

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, timeScale: 600 });
});

afterAll(async () => {
  await emulator?.close();
});

/** A component to move resources into and out of. */
class Group extends pulumi.ComponentResource {
  constructor(name: string, opts?: pulumi.ComponentResourceOptions) {
    super("test:index:Group", name, {}, opts);
    this.registerOutputs({});
  }
}

/** What the program declares at one step of the stack's life. */
interface Shape {
  /** The VPC's resource name: `app`, then `network` (a rename with an alias). */
  appName: "app" | "network";
  /** Where `moved` is: at the stack's root, or in the component `group`. */
  moved: "root" | "group";
  guarded: "protected" | "unprotected" | "gone";
  /** Whether the `retainOnDelete` VPC is still in the program. */
  kept: boolean;
  /** 0, then 1: the descriptions and regions of the second step. */
  round: number;
  t1: string;
  t2: string;
}

const FIRST: Shape = { appName: "app", moved: "root", guarded: "protected", kept: true, round: 0, t1: "one", t2: "one" };

/** Writes as `METHOD path` with ids as `{id}`, sorted: what a step cost, whatever the order. */
const writes = (mark: number) => writesSince(emulator, mark).map((w) => w.replace(/\/\d+/g, "/{id}"));

/** Resource name → the operations of its steps (same omitted), in the order the engine finished them. */
function done(events: EngineEvent[]): Record<string, string[]> {
  const ops: Record<string, string[]> = {};
  for (const e of events) {
    const meta = e.resOutputsEvent?.metadata;
    if (!meta || meta.type.startsWith("pulumi:") || meta.op === "same") continue;
    (ops[meta.urn.split("::").pop()!] ??= []).push(meta.op);
  }
  return ops;
}

/** Resource name → its planned operation (same omitted), from a preview's events. */
function planned(events: EngineEvent[]): Record<string, string> {
  const steps: Record<string, string> = {};
  for (const e of events) {
    const meta = e.resourcePreEvent?.metadata;
    if (!meta || meta.type.startsWith("pulumi:") || meta.op === "same") continue;
    const name = meta.urn.split("::").pop()!;
    // A replacement's steps (create-replacement, replace, delete-replaced) read as one `replace`.
    steps[name] = ["create-replacement", "delete-replaced", "replace"].includes(meta.op) ? "replace" : meta.op;
  }
  return steps;
}

describe.each(DOORS)("through the %s", (door) => {
  let client: ComputeClient;
  let testStack: TestStack;
  let shape: Shape = FIRST;
  let byHand = 0;
  const plugin = door === "provider plugin";

  function program(): Promise<Record<string, unknown>> {
    const make = (kind: string, name: string, args: object, opts?: pulumi.CustomResourceOptions) =>
      resourceThrough(door, kind, name, args, opts);
    const vpc = (name: string, args: object, opts?: pulumi.CustomResourceOptions) =>
      make("Vpc", name, { label: name, region: REGION, ...args }, opts);
    const s = shape;
    const net = vpc(s.appName, { label: "app" }, s.appName === "network" ? { aliases: [{ name: "app" }] } : undefined);
    make("VpcSubnet", "web", { vpcId: net.id, label: "web", ipv4: "10.0.1.0/24" });
    const group = new Group("group");
    vpc(
      "moved",
      {},
      s.moved === "group" ? { parent: group, aliases: [{ parent: pulumi.rootStackResource }] } : { aliases: [{ parent: group }] },
    );
    if (s.guarded !== "gone") vpc("guarded", {}, { protect: s.guarded === "protected" });
    if (s.kept) vpc("kept", {}, { retainOnDelete: true });
    vpc("ign", { description: `round ${s.round}` }, { ignoreChanges: ["description"] });
    vpc("roc", { description: `round ${s.round}` }, { replaceOnChanges: ["description"] });
    // A new label and a new region: the engine alone would create the new VPC first.
    vpc("dbr", { label: `dbr-${s.round}`, region: s.round === 0 ? OTHER : REGION }, { deleteBeforeReplace: true });
    const db = make("MysqlDatabase", "db", {
      label: "app-db",
      region: s.round === 0 ? REGION : OTHER,
      type: "g6-nanode-1",
      engineId: "mysql/8",
    });
    // A new engine version and cluster size keep the label: the old database goes first.
    make("PostgresqlDatabase", "pg", {
      label: "app-pg",
      region: REGION,
      type: "g6-nanode-1",
      engineId: s.round === 0 ? "postgresql/16" : "postgresql/17",
      clusterSize: s.round === 0 ? 1 : 3,
    });
    make("Firewall", "after", { label: "after", inboundPolicy: "DROP", outboundPolicy: "ACCEPT" }, { dependsOn: [db] });
    const regional = vpc("regional", { region: s.round === 0 ? REGION : OTHER });
    make("VpcSubnet", "regional-web", { vpcId: regional.id, label: "web", ipv4: "10.0.2.0/24" });
    vpc("t1", { region: OTHER, description: s.t1 });
    vpc("t2", { region: OTHER, description: s.t2 });
    // Pulumi's import by id: the provider reads the object and compares the program's inputs with it.
    vpc("imported", { label: "by-hand", description: "made by hand" }, { import: String(byHand) });
    return Promise.resolve({});
  }

  const urnOf = (name: string) => testStack.resources().find((r) => r.urn.endsWith(`::${name}`))!.urn;

  /** A preview that sends no write; its plan. */
  async function preview(): Promise<Record<string, string>> {
    const events = eventRecorder();
    const mark = emulator.control.listRequests().length;
    await testStack.stack.preview({ onEvent: events.onEvent });
    expect(writes(mark)).toEqual([]);
    return planned(events.events);
  }

  beforeAll(async () => {
    // An account per door: the same labels, and the API's ten VPCs per region each.
    const account = emulator.control.createAccount();
    client = new ComputeClient({ baseUrl: emulator.url, token: account.token });
    byHand = (await client.vpcs.create({ label: "by-hand", region: REGION, description: "made by hand" })).id;
    testStack = await createTestStack({
      name: plugin ? "options-plugin" : "options",
      apiUrl: emulator.url,
      token: account.token,
      program,
      ephemeral: { checkpoints: false, clock: emulator.emulator.clock },
    });
  });

  afterAll(async () => {
    // No destroy: the emulator, and the account with it, goes at the end of the file.
    testStack?.cleanup();
    await client?.close();
  });

  test("up: dependsOn waits for the database; import adopts without a write; the next preview is empty", async () => {
    const plan = await preview();
    expect(plan.imported).toBe("import");
    const events = eventRecorder();
    const mark = emulator.control.listRequests().length;
    const up = await testStack.stack.up({ onEvent: events.onEvent });
    expect(up.summary.result).toBe("succeeded");
    const sent = writes(mark);
    // One create each, the subnets' included; nothing for the imported VPC.
    expect(sent.filter((w) => w === "POST /v4/vpcs")).toHaveLength(10);
    expect(sent.filter((w) => w === "POST /v4/vpcs/{id}/subnets")).toHaveLength(2);
    expect(sent.filter((w) => !/^POST \/v4\/vpcs/.test(w)).sort()).toEqual([
      "POST /v4/databases/mysql/instances",
      "POST /v4/databases/postgresql/instances",
      "POST /v4/networking/firewalls",
    ]);
    // dependsOn: the firewall's step starts once the database's create has finished (its wait for `active` included).
    const order = events.events.flatMap((e) => {
      const outs = e.resOutputsEvent?.metadata;
      const pre = e.resourcePreEvent?.metadata;
      if (outs?.urn.endsWith("::db")) return ["db done"];
      if (pre?.urn.endsWith("::after")) return ["after starts"];
      return [];
    });
    expect(order).toEqual(["db done", "after starts"]);
    expect(done(events.events).imported).toEqual(["import"]);
    expect(testStack.resources().find((r) => r.urn.endsWith("::imported"))?.id).toBe(String(byHand));
    expect(await preview()).toEqual({});
  });

  test("aliases (a rename, a move into a component), ignoreChanges, replaceOnChanges, deleteBeforeReplace, and replacements that keep a unique label", async () => {
    const before = await client.vpcs.listAll();
    const idOf = (label: string) => before.find((v) => v.label === label)!.id;
    shape = { ...shape, appName: "network", moved: "group", round: 1 };
    const plan = await preview();
    // The rename and the move are no steps of their own (an alias keeps the object); `ign` changes nothing.
    expect(plan).toEqual({ roc: "replace", dbr: "replace", db: "replace", pg: "replace", regional: "replace", "regional-web": "replace" });

    const events = eventRecorder();
    const mark = emulator.control.listRequests().length;
    const up = await testStack.stack.up({ onEvent: events.onEvent });
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges).toMatchObject({ replace: 6 });
    expect(writes(mark).sort()).toEqual(
      [
        ...["POST /v4/vpcs", "DELETE /v4/vpcs/{id}"].flatMap((w) => [w, w, w]), // roc, dbr, regional
        "POST /v4/vpcs/{id}/subnets",
        "DELETE /v4/vpcs/{id}/subnets/{id}",
        "POST /v4/databases/mysql/instances",
        "DELETE /v4/databases/mysql/instances/{id}",
        "POST /v4/databases/postgresql/instances",
        "DELETE /v4/databases/postgresql/instances/{id}",
      ].sort(),
    );
    const steps = done(events.events);
    // deleteBeforeReplace: the old VPC goes first, though its label changes too.
    expect(steps.dbr).toEqual(["delete-replaced", "replace", "create-replacement"]);
    // A unique label the replacement keeps: the old object goes first, so the new one can take it.
    for (const name of ["roc", "db", "pg", "regional"])
      expect({ name, steps: steps[name] }).toEqual({ name, steps: ["delete-replaced", "replace", "create-replacement"] });

    const after = await client.vpcs.listAll();
    // The renamed and the moved VPCs are the same objects; `ign` kept its description; each label once.
    expect(after.find((v) => v.label === "app")!.id).toBe(idOf("app"));
    expect(after.find((v) => v.label === "moved")!.id).toBe(idOf("moved"));
    expect(after.find((v) => v.label === "ign")!.description).toBe("round 0");
    expect(after.find((v) => v.label === "roc")).toMatchObject({ description: "round 1" });
    expect(after.find((v) => v.label === "roc")!.id).not.toBe(idOf("roc"));
    expect(after.filter((v) => v.label === "regional").map((v) => v.region)).toEqual([OTHER]);
    expect(after.map((v) => v.label).sort()).toEqual([...new Set(after.map((v) => v.label))].sort());
    expect(after.some((v) => v.label === "dbr-0")).toBe(false);
    const dbs = await client.databases.mysql.listAll({ filter: { label: "app-db" } });
    expect(dbs.map((d) => d.region)).toEqual([OTHER]);
    const pgs = await client.databases.postgresql.listAll({ filter: { label: "app-pg" } });
    expect(pgs.map((d) => [d.version.split(".")[0], d.cluster_size])).toEqual([["17", 3]]);
    const [subnet] = await client.vpcs.subnets.listAll(after.find((v) => v.label === "regional")!.id);
    expect(subnet).toMatchObject({ label: "web", ipv4: "10.0.2.0/24" });
    expect(testStack.resources().some((r) => r.urn.includes("test:index:Group$") && r.urn.endsWith("::moved"))).toBe(true);
    expect(await preview()).toEqual({});
  });

  test("protect: removing the resource fails at preview, without a write", async () => {
    shape = { ...shape, guarded: "gone" };
    const mark = emulator.control.listRequests().length;
    const failed = await testStack.stack.preview().then(
      () => "",
      (e: Error) => e.message,
    );
    expect(failed).toMatch(/cannot be deleted\s+because it is protected/);
    expect(writes(mark)).toEqual([]);
    expect((await client.vpcs.listAll()).some((v) => v.label === "guarded")).toBe(true);
  });

  test("the move back out of the component, protect lifted, a retainOnDelete resource removed: three changes, no write", async () => {
    shape = { ...shape, guarded: "unprotected", moved: "root", kept: false };
    const kept = (await client.vpcs.listAll()).find((v) => v.label === "kept")!;
    const events = eventRecorder();
    const mark = emulator.control.listRequests().length;
    const up = await testStack.stack.up({ onEvent: events.onEvent });
    expect(up.summary.result).toBe("succeeded");
    // Lifting `protect` and the move back are no steps; the retained VPC's delete drops it from state only.
    expect(done(events.events)).toEqual({ kept: ["delete"] });
    expect(writes(mark)).toEqual([]);
    expect((await client.vpcs.get(kept.id)).label).toBe("kept");
    expect(testStack.resources().some((r) => r.urn.endsWith("::kept"))).toBe(false);
    expect(testStack.resources().find((r) => r.urn.endsWith("::moved"))!.urn).not.toContain("test:index:Group$");
    expect(await preview()).toEqual({});
    await client.vpcs.delete(kept.id);
  });

  test("--target and --exclude: each up writes only what it may, and leaves the rest to the next; --replace with deleteBeforeReplace deletes first", async () => {
    // Three changes pending: `guarded` removed, `t1` and `t2` with new descriptions.
    shape = { ...shape, guarded: "gone", t1: "two", t2: "two" };
    /** An up with `options`: the steps it made, and its writes. */
    const upWith = async (options: { target?: string[]; exclude?: string[]; replace?: string[] }) => {
      const events = eventRecorder();
      const mark = emulator.control.listRequests().length;
      const up = await testStack.stack.up({ ...options, onEvent: events.onEvent });
      expect(up.summary.result).toBe("succeeded");
      return { steps: done(events.events), writes: writes(mark) };
    };
    expect(await upWith({ target: [urnOf("t1")] })).toEqual({ steps: { t1: ["update"] }, writes: ["PUT /v4/vpcs/{id}"] });
    expect(await upWith({ exclude: [urnOf("t2")] })).toEqual({ steps: { guarded: ["delete"] }, writes: ["DELETE /v4/vpcs/{id}"] });
    // What both left is the next up's.
    expect(await upWith({})).toEqual({ steps: { t2: ["update"] }, writes: ["PUT /v4/vpcs/{id}"] });
    // `--replace` asks the provider no diff: the `deleteBeforeReplace` option orders it, the old VPC first.
    expect(await upWith({ replace: [urnOf("dbr")] })).toEqual({
      steps: { dbr: ["delete-replaced", "replace", "create-replacement"] },
      writes: ["DELETE /v4/vpcs/{id}", "POST /v4/vpcs"],
    });
    const descriptions = Object.fromEntries((await client.vpcs.listAll()).map((v) => [v.label, v.description]));
    expect(descriptions).toMatchObject({ t1: "two", t2: "two" });
    expect(descriptions).not.toHaveProperty("guarded");
    expect(await preview()).toEqual({});
  });
});

describe("import and customTimeouts, door by door", () => {
  let client: ComputeClient;
  let token: string;

  beforeAll(() => {
    token = emulator.control.createAccount().token;
    client = new ComputeClient({ baseUrl: emulator.url, token });
  });

  afterAll(async () => {
    await client?.close();
  });

  test("the TypeScript classes: `import` with `adoptId` refused at preview, before any request; customTimeouts a warning on the resource's row", async () => {
    const made = await client.vpcs.create({ label: "made-by-hand", region: REGION });
    let options: pulumi.CustomResourceOptions = { import: String(made.id) };
    const testStack = await createTestStack({
      name: "options-classes",
      apiUrl: emulator.url,
      token,
      program: async () => {
        try {
          // The import's object, or a label of its own (a taken one is refused at preview).
          const label = options.import === undefined ? "timed-net" : "made-by-hand";
          const adoptId = options.import === undefined ? undefined : made.id;
          resourceThrough("dynamic resources", "Vpc", "net", { label, region: REGION, adoptId }, options);
        } catch (error) {
          // A program run by the CLI stops on the error with this message; an inline program's would
          // also surface in the test's process (Pulumi's automation server rethrows it), so it is logged.
          void pulumi.log.error((error as Error).message);
        }
      },
    });
    try {
      let mark = emulator.control.listRequests().length;
      const refused = await testStack.stack.preview().then(
        () => "",
        (e: Error) => e.message,
      );
      expect(refused).toContain(
        'Vpc "net": both the `import` option and `adoptId` are set; keep `import` to take the object as it is ' +
          "(the program's inputs must match it), or `adoptId` to bring it to the program's values at the next up",
      );
      expect(emulator.control.listRequests().slice(mark)).toEqual([]);

      options = { customTimeouts: { create: "2s" } };
      const events = eventRecorder();
      mark = emulator.control.listRequests().length;
      await testStack.stack.preview({ onEvent: events.onEvent });
      const warnings = events.events.flatMap((e) => (e.diagnosticEvent?.severity === "warning" ? [e.diagnosticEvent] : []));
      expect(warnings).toEqual([
        expect.objectContaining({
          urn: expect.stringMatching(/::net$/),
          message: expect.stringContaining(
            'customTimeouts is not honoured by the TypeScript classes; set the input `timeouts: { create: "2s" }` instead',
          ),
        }),
      ]);
      expect(writesSince(emulator, mark)).toEqual([]);
    } finally {
      await testStack.stack.destroy().catch(() => undefined);
      testStack.cleanup();
      await client.vpcs.delete(made.id);
    }
  });

  /** A MySQL database whose create has 2 s, as each door takes a deadline: the classes' `timeouts` input, the plugin's `customTimeouts`. */
  const slowCreate = {
    "dynamic resources": { args: { timeouts: { create: "2s" } }, options: {} },
    "provider plugin": { args: {}, options: { customTimeouts: { create: "2s" } } },
  } satisfies Record<Door, { args: object; options: pulumi.CustomResourceOptions }>;

  test.each(DOORS)(
    "%s: a create past its deadline keeps the object in state with its error, and destroy deletes what it made",
    async (door) => {
      const testStack = await createTestStack({
        name: `timeouts-${door.replace(" ", "-")}`,
        apiUrl: emulator.url,
        token,
        program: async () => {
          const args = { label: "slow", region: REGION, type: "g6-nanode-1", engineId: "mysql/8", ...slowCreate[door].args };
          resourceThrough(door, "MysqlDatabase", "db", args, slowCreate[door].options);
        },
      });
      // The wait's first read of the new database answers after 5 s: past the 2 s, far inside the default.
      const fault = emulator.control.addFault({
        pathPattern: "^/v4/databases/mysql/instances/\\d+$",
        method: "GET",
        kind: "latency",
        latencyMs: 5000,
        count: 1,
      });
      try {
        const mark = emulator.control.listRequests().length;
        const failed = await testStack.stack.up().then(
          () => "",
          (e: Error) => e.message,
        );
        expect(failed).toMatch(/MySQL database \d+ was created but did not become ready: MySQL database create did not finish within 2s/);
        expect(writes(mark)).toEqual(["POST /v4/databases/mysql/instances"]);
        // Kept in state with its error (an init failure: the object's id and properties reach the engine
        // in the call's status details), so destroy deletes it: one object, made once, deleted once.
        const [made] = await client.databases.mysql.listAll();
        const state = (await testStack.stack.exportStack()).deployment as {
          resources?: Array<{ type: string; id?: string; initErrors?: string[] }>;
        };
        expect(state.resources?.find((r) => r.type.endsWith("MysqlDatabase"))).toMatchObject({
          id: String(made!.id),
          initErrors: [expect.stringContaining("did not become ready")],
        });
        const destroyMark = emulator.control.listRequests().length;
        await testStack.stack.destroy();
        expect(writes(destroyMark)).toEqual(["DELETE /v4/databases/mysql/instances/{id}"]);
        expect(await client.databases.mysql.listAll()).toEqual([]);
      } finally {
        emulator.control.removeFault(fault.id);
        await testStack.stack.destroy().catch(() => undefined);
        testStack.cleanup();
      }
    },
  );
});
