/**
 * Within one run (`Holdings` in `provider/engine/ownership.ts`): an object the program adopts is
 * held, and another resource's delete of it sends nothing and says so; an object nobody adopts is
 * deleted as before. And `read` hands back the recorded inputs as the API holds them, so
 * `ignoreChanges` keeps a value changed by hand after `refresh` (`refreshedInputs`).
 */
import { provider } from "../../../provider/registry";
import { useProviderHarness } from "../harness";

const harness = useProviderHarness();
const vpcs = provider("Vpc");
const writes = () => harness.writes();

test("a delete of an object the program adopts (a rename followed by adoptId) sends nothing; of any other, deletes it", async () => {
  const kept = await harness.client.vpcs.create({ label: "kept", region: "us-iad" });
  const other = await harness.client.vpcs.create({ label: "other", region: "us-iad" });
  const lines: string[] = [];
  const log = jest.spyOn(console, "log").mockImplementation((line: string) => void lines.push(line));
  try {
    // The new name's check sees the adoptId; the old name, which left the program, is deleted after.
    const checked = await vpcs.check!({}, { label: "kept", region: "us-iad", adoptId: kept.id });
    expect(checked.failures ?? []).toEqual([]);
    const mark = writes().length;
    await vpcs.delete!(String(kept.id), { label: "kept", region: "us-iad" });
    expect(writes().slice(mark)).toEqual([]);
    expect(lines.join("\n")).toContain(
      `VPC ${kept.id} is managed by another resource of this program now: this resource is dropped from state only`,
    );
    await vpcs.delete!(String(other.id), { label: "other", region: "us-iad" });
    expect(writes().slice(mark)).toEqual([`DELETE /v4/vpcs/${other.id}`]);
  } finally {
    log.mockRestore();
  }
  expect((await harness.client.vpcs.listAll()).map((v) => v.label)).toEqual(["kept"]);
});

test("read hands back the inputs, each the API now holds otherwise replaced, when an input field drifted", async () => {
  const created = await vpcs.create({ label: "app-net", region: "us-iad", description: "the program's" });
  await harness.client.vpcs.update(Number(created.id), { description: "set by hand" });
  const read = await vpcs.read!(created.id, created.outs);
  expect(read.inputs).toEqual({ label: "app-net", region: "us-iad", description: "set by hand" });
  // Without drift, none: the engine keeps the recorded inputs exactly as they are.
  const again = await vpcs.read!(created.id, read.props);
  expect(again.inputs).toBeUndefined();
});

test("a replacement's second check, without its recorded inputs, does not take its own unchanged label for a clash", async () => {
  await harness.client.vpcs.create({ label: "own", region: "us-iad" });
  const inputs = { label: "own", region: "us-iad" };
  // A new resource with that label: the clash.
  expect((await vpcs.check!({}, inputs)).failures).toEqual([
    { property: "label", reason: expect.stringContaining('label "own" is taken') },
  ]);
  // The existing resource's check (its recorded inputs), then Pulumi's check of its replacement (none): its own object.
  expect((await vpcs.check!(inputs, { ...inputs, region: "us-ord" })).failures ?? []).toEqual([]);
  expect((await vpcs.check!({}, { ...inputs, region: "us-ord" })).failures ?? []).toEqual([]);
});
