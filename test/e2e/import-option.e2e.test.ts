/**
 * Pulumi's `import` resource option through the TypeScript classes, with the `pulumi` CLI in a
 * project folder as a user runs it (the package linked, its launcher declared in `Pulumi.yaml`):
 *
 * - a VPC made by hand, declared as it is with `{ import: id }`: the preview plans an import, `up`
 *   imports it, the emulator receives no write, and the next preview is empty, with the option kept
 *   or removed;
 * - declared with inputs that differ from the object: refused at preview (and at `up`), naming the
 *   resource and each field with the object's value, with no write and nothing in state;
 * - a MySQL database imported the same way: its root password is a secret in state and in the
 *   stack's outputs, never in plain text.
 */
import type { RunningEmulator } from "../../emulator";
import type { ComputeClient } from "../../sdk/client";
import type { ProcessResult } from "../support/process";
import { writesSince } from "../support/requests";
import { expectExit } from "../support/user-shell";
import { linkedStack, type LinkedStack } from "../support/linked-stack";

jest.setTimeout(600_000);

/**
 * The program: each resource is declared when its environment variable says so, with `import`
 * when `IMPORT_OPTION` is set (the ids come from the objects the test makes by hand).
 */
const PROGRAM = `
const compute = require("pulumi-compute");
const env = process.env;
const imported = (id) => (env.IMPORT_OPTION ? { import: id } : undefined);
if (env.NET_ID) {
  new compute.Vpc("net", { label: "by-hand", region: "us-iad", description: "made by hand" }, imported(env.NET_ID));
}
if (env.OTHER_ID) {
  new compute.Vpc("other", { label: "other-by-hand", region: "us-iad", description: "the program's" }, imported(env.OTHER_ID));
}
if (env.DB_ID) {
  const db = new compute.MysqlDatabase(
    "db",
    { label: "db-by-hand", region: "us-iad", type: "g6-nanode-1", engineId: "mysql/8.0.30" },
    imported(env.DB_ID),
  );
  exports.password = db.rootPassword;
}
`;

let linked: LinkedStack;
let emulator: RunningEmulator;
let client: ComputeClient;
/** What the stack holds, declared by each later step too (a resource left out would be deleted). */
let held: Record<string, string> = {};

beforeAll(async () => {
  // Databases provision in seconds instead of minutes.
  linked = await linkedStack({ name: "import-option", program: PROGRAM, timeScale: 300 });
  ({ emulator, client } = linked);
});

afterAll(async () => {
  await linked?.close();
});

/** `pulumi <args>` in the project, declaring what `declared` says (`NET_ID`, `OTHER_ID`, `DB_ID`, `IMPORT_OPTION`). */
const pulumi = (args: string, declared: Record<string, string> = {}): Promise<ProcessResult> =>
  linked.pulumi(`${args} --non-interactive`, declared);

/** The ids of the stack's resources, by name. */
const stateIds = (): Record<string, string | undefined> => {
  const state = JSON.parse(linked.stateText()) as { checkpoint: { latest: { resources: Array<{ urn: string; id?: string }> } } };
  return Object.fromEntries(state.checkpoint.latest.resources.map((r) => [r.urn.split("::").pop()!, r.id]));
};

test("a VPC made by hand: `{ import: id }` imports it with no write, and the next preview is empty", async () => {
  const made = await client.vpcs.create({ label: "by-hand", region: "us-iad", description: "made by hand" });
  const declared = { NET_ID: String(made.id), IMPORT_OPTION: "1" };

  let mark = emulator.control.listRequests().length;
  const preview = await pulumi("preview", declared);
  expectExit(preview, 0);
  expect(preview.out).toMatch(/= +pulumi-nodejs:dynamic\/compute:Vpc +net +import/);
  expect(preview.out).toMatch(/1 to import/);
  expect(writesSince(emulator, mark)).toEqual([]);

  mark = emulator.control.listRequests().length;
  const up = await pulumi("up --yes", declared);
  expectExit(up, 0);
  expect(up.out).toMatch(/1 imported/);
  expect(writesSince(emulator, mark)).toEqual([]);
  expect(stateIds().net).toBe(String(made.id));

  // With the option kept, and without it: the stack holds the object as the program declares it.
  for (const next of [declared, { NET_ID: String(made.id) }]) {
    mark = emulator.control.listRequests().length;
    const clean = await pulumi("preview --expect-no-changes", next);
    expectExit(clean, 0);
    expect(clean.out).toMatch(/2 unchanged/);
    expect(writesSince(emulator, mark)).toEqual([]);
  }
  expect(await client.vpcs.get(made.id)).toMatchObject({ label: "by-hand", description: "made by hand" });
  held = { NET_ID: String(made.id) };
});

test("inputs that differ from the object: refused at preview and at up, naming the resource and the field, with no write", async () => {
  const made = await client.vpcs.create({ label: "other-by-hand", region: "us-iad", description: "made in the console" });
  const declared = { ...held, OTHER_ID: String(made.id), IMPORT_OPTION: "1" };
  const mark = emulator.control.listRequests().length;
  for (const command of ["preview", "up --yes"]) {
    const refused = await pulumi(command, declared);
    expectExit(refused, "fails");
    // On the resource's row and under its diagnostics, as a check failure of the field: no stack trace.
    expect(refused.out).toContain(
      `error: pulumi-nodejs:dynamic/compute:Vpc resource 'other': property description value {the program's} has a problem: ` +
        `the \`import\` option takes the VPC ${made.id} as it is, and it has "made in the console": give the object's value ` +
        `(and change it in a later up), or adopt it with \`adoptId: ${made.id}\` instead of \`import\`, which brings the object ` +
        "to the program's values at the next up",
    );
    expect(refused.out).not.toMatch(/\bat refuseImport|\bat importCheck/);
  }
  expect(writesSince(emulator, mark)).toEqual([]);
  expect(stateIds()).not.toHaveProperty("other");
  expect(await client.vpcs.get(made.id)).toMatchObject({ description: "made in the console" });
});

test("a MySQL database imported: its root password stays a secret, in state and in the stack's outputs", async () => {
  const made = await client.databases.mysql.create({ label: "db-by-hand", region: "us-iad", type: "g6-nanode-1", engine: "mysql/8.0.30" });
  await client.databases.mysql.waitForStatus(made.id, { until: ["active"], timeoutMs: 120_000 });
  const password = (await client.databases.mysql.credentials(made.id)).password;
  const declared = { ...held, DB_ID: String(made.id), IMPORT_OPTION: "1" };

  let mark = emulator.control.listRequests().length;
  const up = await pulumi("up --yes", declared);
  expectExit(up, 0);
  expect(up.out).toMatch(/1 imported/);
  expect(writesSince(emulator, mark)).toEqual([]);
  expect(up.out).not.toContain(password);
  expect(linked.stateText()).not.toContain(password);

  const outputs = await pulumi("stack output --json", declared);
  expectExit(outputs, 0);
  expect(JSON.parse(outputs.stdout)).toEqual({ password: "[secret]" });
  const shown = await pulumi("stack output --json --show-secrets", declared);
  expect(JSON.parse(shown.stdout)).toEqual({ password });

  mark = emulator.control.listRequests().length;
  expectExit(await pulumi("preview --expect-no-changes", { ...held, DB_ID: String(made.id) }), 0);
  expect(writesSince(emulator, mark)).toEqual([]);
});
