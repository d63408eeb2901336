/** `getVlans` against the emulator over HTTP. */
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { getVlans } from "../../../provider/functions/vlans";

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});
afterAll(() => emulator.close());

test("getVlans lists VLANs, optionally of one region or label", async () => {
  const options = { apiUrl: emulator.url, token: emulator.token };
  const a = emulator.control.seedCompute({
    label: "a",
    region: "us-iad",
    configs: [{ interfaces: [{ purpose: "vlan", label: "backend" }] }],
  });
  const b = emulator.control.seedCompute({
    label: "b",
    region: "us-ord",
    configs: [{ interfaces: [{ purpose: "vlan", label: "backend" }] }],
  });
  expect(await getVlans({}, options)).toEqual([
    { region: "us-iad", label: "backend", computes: [a.id], created: a.created },
    { region: "us-ord", label: "backend", computes: [b.id], created: b.created },
  ]);
  expect((await getVlans({ region: "us-ord" }, options)).map((v) => v.computes)).toEqual([[b.id]]);
  expect(await getVlans({ label: "frontend" }, options)).toEqual([]);
});
