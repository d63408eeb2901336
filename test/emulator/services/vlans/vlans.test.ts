/**
 * VLANs in the emulator (api-facts P2-5): derived from the seeded instances' `vlan` interfaces,
 * one per label and region, listing the attached instances; scope `computes:read_only`.
 */
import { Collection } from "../../../../sdk/core/schema";
import { Vlan } from "../../../../sdk/resources/vlans";
import { REASONS } from "../../../../emulator";
import { onlyError, startTestEmulator, type TestEmulator } from "../../helpers";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.control.reset());

function seedVlans() {
  const vlan = (label: string) => ({ purpose: "vlan" as const, label });
  const a = emu.control.seedCompute({ label: "a", region: "us-iad", configs: [{ interfaces: [{ purpose: "public" }, vlan("backend")] }] });
  emu.control.setClock({ advanceMs: 5000 });
  const b = emu.control.seedCompute({
    label: "b",
    region: "us-iad",
    configs: [{ interfaces: [vlan("backend")] }, { interfaces: [vlan("backend"), vlan("frontend")] }],
  });
  const c = emu.control.seedCompute({ label: "c", region: "us-ord", configs: [{ interfaces: [vlan("backend")] }] });
  emu.control.seedCompute({ label: "d", region: "us-ord", configs: [{ interfaces: [{ purpose: "public" }] }] });
  return { a, b, c };
}

test("one VLAN per label and region, with its instances once each and the earliest creation time", async () => {
  const { a, b, c } = seedVlans();
  const r = await emu.get("/networking/vlans");
  expect(r.status).toBe(200);
  const page = Collection(Vlan).parse(r.body);
  expect(Object.keys(r.body.data[0])).toEqual(["region", "label", "computes", "created"]);
  expect(page.data).toEqual([
    { region: "us-iad", label: "backend", computes: [a.id, b.id], created: a.created },
    { region: "us-iad", label: "frontend", computes: [b.id], created: b.created },
    { region: "us-ord", label: "backend", computes: [c.id], created: c.created },
  ]);
  expect(a.created < b.created).toBe(true);
});

test("VLANs filter by label and region, and an account without vlan interfaces has none", async () => {
  seedVlans();
  const filtered = await emu.get("/networking/vlans", { headers: { "X-Filter": JSON.stringify({ label: "backend", region: "us-ord" }) } });
  expect(filtered.body.data.map((v: Vlan) => `${v.region}/${v.label}`)).toEqual(["us-ord/backend"]);
  const other = emu.control.createAccount({ id: "other" });
  expect((await emu.get("/networking/vlans", { token: other.token })).body).toEqual({ data: [], page: 1, pages: 1, results: 0 });
});

test("listing VLANs needs computes:read_only; a restricted user sees the VLANs of granted instances", async () => {
  const { c } = seedVlans();
  const { token } = emu.control.createToken({ scopes: ["ips:read_only"] });
  const refused = await emu.get("/networking/vlans", { token });
  expect(refused.status).toBe(401);
  expect(onlyError(refused).reason).toBe(REASONS.oauthScope);
  const scoped = emu.control.createToken({ scopes: ["computes:read_only"] });
  expect((await emu.get("/networking/vlans", { token: scoped.token })).body.results).toBe(3);
  const restricted = emu.control.createToken({ restricted: true, grants: { compute: [{ id: c.id, permissions: "read_only" }] } });
  expect((await emu.get("/networking/vlans", { token: restricted.token })).body.data).toEqual([
    expect.objectContaining({ region: "us-ord", computes: [c.id] }),
  ]);
});
