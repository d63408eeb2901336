/**
 * Body fields an endpoint does not know: ignored by default, as the API ignores them (the web
 * console repeats `ticket_id` in a reply's body; clients echo a rule set's `version`), refused in
 * strict mode, which this project's tests run (`test/support/strict-emulator.ts`), except the
 * fields an endpoint declares as echoed.
 */
import { STRICT_ENV } from "../../../emulator";
import { parseCliArgs } from "../../../emulator/cli";
import { expectError, ok, startTestEmulator, type TestEmulator } from "../helpers";

const rules = { inbound: [], outbound: [], inbound_policy: "ACCEPT", outbound_policy: "ACCEPT" };
const firewall = (label: string) => ({ label, rules });

let lenient: TestEmulator;
let strict: TestEmulator;
beforeAll(async () => {
  [lenient, strict] = await Promise.all([startTestEmulator({ strict: false }), startTestEmulator({ strict: true })]);
});
afterAll(async () => {
  await Promise.all([lenient.close(), strict.close()]);
});

describe("by default, as the API does", () => {
  test("an unknown field is dropped: the object is made from the fields the endpoint knows", async () => {
    const vpc = await ok(lenient.post("/vpcs", { label: "extra", region: "us-iad", colour: "blue", ipv6: [{ range: "auto" }] }));
    expect(vpc).toMatchObject({ label: "extra", region: "us-iad" });
    expect(vpc).not.toHaveProperty("colour");
    expect(await ok(lenient.get(`/vpcs/${vpc.id}`))).toEqual(vpc);
  });

  test("unknown fields at any depth are dropped, and the fields' own rules still apply", async () => {
    const rule = { action: "ACCEPT", protocol: "TCP", ports: "22", addresses: { ipv4: ["0.0.0.0/0"] }, label: "ssh", flavour: "x" };
    const fw = await ok(lenient.post("/networking/firewalls", { label: "deep", rules: { ...rules, inbound: [rule], nonsense: 1 } }));
    expect(fw.rules.inbound[0]).not.toHaveProperty("flavour");
    expect(fw.rules).not.toHaveProperty("nonsense");
    // A real error next to an unknown field is reported alone, as the API would report it.
    expectError(await lenient.post("/vpcs", { region: "us-iad", colour: "blue" }), 400, "label is required", "label");
  });

  test("the official client's reply body, with the ticket's id repeated, is accepted", async () => {
    const ticket = await ok(lenient.post("/support/tickets", { summary: "Help", description: "Broken" }));
    const reply = await ok(lenient.post(`/support/tickets/${ticket.id}/replies`, { ticket_id: ticket.id, description: "More" }));
    expect(reply).toMatchObject({ description: "More" });
  });

  test("a rule set read and sent back whole, `version` and `fingerprint` included, is accepted", async () => {
    const fw = await ok(lenient.post("/networking/firewalls", firewall("echo")));
    const read = await ok(lenient.get(`/networking/firewalls/${fw.id}/rules`));
    expect(read).toMatchObject({ version: 1, fingerprint: expect.any(String) });
    const written = await ok(lenient.put(`/networking/firewalls/${fw.id}/rules`, { ...read, inbound_policy: "DROP" }));
    expect(written).toMatchObject({ version: 2, inbound_policy: "DROP" });
  });
});

describe("strict", () => {
  test("an unknown field is refused by name, at its depth", async () => {
    expectError(await strict.post("/vpcs", { label: "extra", region: "us-iad", colour: "blue" }), 400, "Unknown field: colour");
    const rule = { action: "ACCEPT", protocol: "TCP", ports: "22", addresses: { ipv4: ["0.0.0.0/0"] }, flavour: "x" };
    expectError(
      await strict.post("/networking/firewalls", { label: "deep", rules: { ...rules, inbound: [rule] } }),
      400,
      "Unknown field: flavour",
      "rules.inbound[0]",
    );
    expect((await ok(strict.get("/vpcs"))).data).toEqual([]);
  });

  test("the fields an endpoint declares as echoed are still dropped", async () => {
    const ticket = await ok(strict.post("/support/tickets", { summary: "Help", description: "Broken" }));
    expect(await ok(strict.post(`/support/tickets/${ticket.id}/replies`, { ticket_id: ticket.id, description: "More" }))).toMatchObject({
      description: "More",
    });
    const fw = await ok(strict.post("/networking/firewalls", firewall("echo")));
    const read = await ok(strict.get(`/networking/firewalls/${fw.id}/rules`));
    expect(await ok(strict.put(`/networking/firewalls/${fw.id}/rules`, read))).toMatchObject({ version: 2 });
    // Echoed on one endpoint is not echoed everywhere: a firewall update carrying rules is still a mistake.
    expectError(await strict.put(`/networking/firewalls/${fw.id}`, { label: "renamed", rules }), 400, "Unknown field: rules");
  });
});

describe("choosing the mode", () => {
  test("`--strict` sets the option; without it the command leaves the default", () => {
    expect(parseCliArgs(["--strict"])).toMatchObject({ strict: true });
    expect(parseCliArgs([])).not.toHaveProperty("strict");
  });

  test(`${STRICT_ENV}=1 turns strict on where the option is not given, and the option wins over it`, async () => {
    expect(process.env[STRICT_ENV]).toBe("1"); // jest's setup file: every test emulator is strict
    const saved = process.env[STRICT_ENV];
    const fromEnv = await startTestEmulator();
    delete process.env[STRICT_ENV];
    const withoutEnv = await startTestEmulator();
    try {
      expect(fromEnv.emulator.strict).toBe(true);
      expect(lenient.emulator.strict).toBe(false);
      expect(withoutEnv.emulator.strict).toBe(false);
      // Decided at start: the environment changing later does not flip a running emulator.
      expect(fromEnv.emulator.strict).toBe(true);
      expect((await withoutEnv.post("/vpcs", { label: "x-vpc", region: "us-iad", colour: "blue" })).status).toBe(200);
      expectError(await fromEnv.post("/vpcs", { label: "x-vpc", region: "us-iad", colour: "blue" }), 400, "Unknown field: colour");
    } finally {
      process.env[STRICT_ENV] = saved;
      await Promise.all([fromEnv.close(), withoutEnv.close()]);
    }
  });
});
