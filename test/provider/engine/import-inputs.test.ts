/**
 * Pulumi's import through the engine's provider methods (`engine/import-inputs.ts`), as the dynamic
 * door serves them (`provider(kind)` of the registry) against the emulator: a read with nothing
 * recorded is an import, answered with the object's outputs and the inputs that manage it as it is;
 * the diff that follows refuses inputs that differ from the object, naming each field; any other
 * diff, and the same resource's next diff, pass as before.
 */
import { provider } from "../../../provider/registry";
import { PROVIDER_KEY, providerText } from "../../../provider/classes/shim";
import { isImportRead } from "../../../provider/engine/import-inputs";
import { SERVING_SLOT } from "../../../provider/engine/ports";
import { useProviderHarness } from "../harness";

const harness = useProviderHarness();

const text = () => providerText("Vpc");

test("a read with nothing recorded but the provider's line is an import; any recorded output or input makes it a refresh", () => {
  expect(isImportRead({}, undefined)).toBe(true);
  expect(isImportRead({ [PROVIDER_KEY]: "x" }, {})).toBe(true);
  expect(isImportRead({ [PROVIDER_KEY]: "x", label: "a" }, undefined)).toBe(false);
  expect(isImportRead({}, { label: "a" })).toBe(false);
});

test("an import reads the object by id alone, with no write: its outputs, and the inputs that manage it as it is", async () => {
  const made = await harness.client.vpcs.create({ label: "by-hand", region: "us-iad", description: "made by hand" });
  const mark = harness.emulator.control.listRequests().length;
  const read = await provider("Vpc").read!(String(made.id), { [PROVIDER_KEY]: text() });
  expect(read.id).toBe(String(made.id));
  expect(read.inputs).toEqual({ label: "by-hand", region: "us-iad", description: "made by hand" });
  expect(read.props).toMatchObject({ label: "by-hand", region: "us-iad", description: "made by hand" });
  expect(
    harness.emulator.control
      .listRequests()
      .slice(mark)
      .map((r) => r.method),
  ).toEqual(["GET"]);
  // The import's diff against the same inputs: nothing to change.
  expect((await provider("Vpc").diff!(read.id!, read.props!, { ...read.inputs, [PROVIDER_KEY]: text() })).changes).toBe(false);
});

test("the diff after an import refuses inputs that differ, naming each field with the object's value and both ways on; the next diff of it passes", async () => {
  const made = await harness.client.vpcs.create({ label: "by-hand", region: "us-iad", description: "made in the console" });
  const id = String(made.id);
  const vpc = provider("Vpc");
  const read = await vpc.read!(id, { [PROVIDER_KEY]: text() });
  const news = { label: "renamed", region: "us-ord", description: "made in the console", [PROVIDER_KEY]: text() };
  const then = (what: string) =>
    `give the object's value (and change it in a later up), or adopt it with \`adoptId: ${id}\` instead of \`import\`, ` +
    `which brings the object to the program's values at the next up${what}`;
  await expect(vpc.diff!(id, read.props!, news)).rejects.toThrow(
    `Vpc ${id}: label: the \`import\` option takes the VPC ${id} as it is, and it has "by-hand": ${then("; ")}` +
      `region: the \`import\` option takes the VPC ${id} as it is, and it has "us-iad" (a change would replace it): ${then("")}`,
  );
  // Refused once: a diff of the resource recorded in state is a plain diff again.
  expect(await vpc.diff!(id, read.props!, news)).toMatchObject({ changes: true, replaces: ["region"] });
});

test("served as a door serves it (the resource's URN known), the check after an import refuses each differing input as a failure on that field; the diff then passes", async () => {
  const made = await harness.client.vpcs.create({ label: "by-hand", region: "us-iad", description: "made by hand" });
  const id = String(made.id);
  const vpc = provider("Vpc");
  const slot = globalThis as Record<symbol, unknown>;
  const before = slot[SERVING_SLOT];
  slot[SERVING_SLOT] = () => "urn:pulumi:dev::p::pulumi-nodejs:dynamic/compute:Vpc::net";
  try {
    const read = await vpc.read!(id, { [PROVIDER_KEY]: text() });
    const news = { label: "renamed", region: "us-iad", description: "made by hand", [PROVIDER_KEY]: text() };
    const checked = await vpc.check!(read.inputs, news);
    expect(checked.failures).toEqual([
      {
        property: "label",
        reason:
          `the \`import\` option takes the VPC ${id} as it is, and it has "by-hand": give the object's value (and change it in a later up), ` +
          `or adopt it with \`adoptId: ${id}\` instead of \`import\`, which brings the object to the program's values at the next up`,
      },
    ]);
    // The same inputs as the object's pass.
    const same = await vpc.read!(id, { [PROVIDER_KEY]: text() });
    expect((await vpc.check!(same.inputs, { ...same.inputs, [PROVIDER_KEY]: text() })).failures ?? []).toEqual([]);
    expect((await vpc.diff!(id, same.props!, { ...same.inputs, [PROVIDER_KEY]: text() })).changes).toBe(false);
  } finally {
    slot[SERVING_SLOT] = before;
  }
});

test("a diff of a resource that was not imported in this process is never refused", async () => {
  const made = await harness.client.vpcs.create({ label: "managed", region: "us-iad" });
  const olds = { label: "managed", region: "us-iad", description: "", [PROVIDER_KEY]: text() };
  const diff = await provider("Vpc").diff!(String(made.id), olds, { label: "renamed", region: "us-iad", [PROVIDER_KEY]: text() });
  expect(diff).toMatchObject({ changes: true, diffs: ["label"] });
});

test("an object of a kind read under its parent cannot be imported by its id alone: refused naming adoptId with the id", async () => {
  const vpc = await harness.client.vpcs.create({ label: "parent", region: "us-iad" });
  const subnet = await harness.client.vpcs.subnets.create(vpc.id, { label: "web", ipv4: "10.0.1.0/24" });
  await expect(provider("VpcSubnet").read!(String(subnet.id), { [PROVIDER_KEY]: providerText("VpcSubnet") })).rejects.toThrow(
    new RegExp(
      `^the subnet ${subnet.id} cannot be imported by its id alone \\(.*\\); adopt it with \`adoptId: ${subnet.id}\` in the program instead$`,
    ),
  );
});
