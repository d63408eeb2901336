/**
 * The Domain provider against the emulator over HTTP: `check` refuses every locally checkable
 * rule at preview, the name changes in place while the type replaces, timers compare as the API
 * rounds them, drift is read back, clones, ambiguous creates are adopted.
 */
import { DOMAIN_REASONS } from "../../../sdk/resources/domains";
import { provider } from "../../../provider/registry";
import { check } from "../../../provider/engine/engine";
import { UNKNOWN } from "../../../provider/engine/values";
import { domainSpec } from "../../../provider/resources/domain";
import { useProviderHarness } from "../harness";

const harness = useProviderHarness();
const domains = provider("Domain");
const records = provider("DomainRecord");

const master = (domain = "example.com", extra: Record<string, unknown> = {}) => ({
  domain,
  type: "master",
  soaEmail: "admin@example.com",
  ...extra,
});
const failures = (inputs: Record<string, unknown>) => check(domainSpec, inputs).failures ?? [];

describe("check at preview", () => {
  test("a master domain needs soaEmail, a slave one masterIps", () => {
    expect(failures({ domain: "example.com", type: "master" })).toEqual([
      { property: "soaEmail", reason: "soaEmail required when type=master" }, // the API says soa_email
    ]);
    expect(failures({ domain: "example.com", type: "slave", masterIps: [] })).toEqual([
      { property: "masterIps", reason: DOMAIN_REASONS.masterIpsRequired },
    ]);
    expect(failures({ domain: "example.com", type: "slave", masterIps: ["192.0.2.1"] })).toEqual([]);
    // Unknown at preview: checked once known.
    expect(failures({ domain: "example.com", type: "master", soaEmail: UNKNOWN })).toEqual([]);
  });

  test.each([
    ["domain", { domain: "bad_name.com" }, DOMAIN_REASONS.domainInvalid],
    ["domain", { domain: `${"a".repeat(64)}.com` }, DOMAIN_REASONS.domainLabelLength],
    ["soaEmail", { soaEmail: "nobody" }, "soaEmail must be a valid email address"],
    ["description", { description: "" }, DOMAIN_REASONS.descriptionLength],
    ["group", { group: "g".repeat(51) }, DOMAIN_REASONS.groupLength],
    ["status", { status: "paused" }, DOMAIN_REASONS.statusInvalid],
    ["ttlSec", { ttlSec: -5 }, DOMAIN_REASONS.secondsInvalid("ttlSec")],
  ])("a domain's %s is checked with the API's reason, in the program's words", (property, extra, reason) => {
    expect(failures(master("example.com", extra))).toEqual([{ property, reason }]);
  });

  test("a long axfrIps is shown as a short excerpt beside the reason, not printed whole", () => {
    const axfrIps = Array.from({ length: 80 }, (_, i) => `2001:db8::${(0x1000 + i).toString(16)}`);
    expect(failures(master("example.com", { axfrIps }))).toEqual([
      {
        property: "",
        reason: expect.stringMatching(/^axfrIps \["2001:db8::1000",.*… \(80 items\): axfrIps may hold at most 1000 characters in total$/),
      },
    ]);
  });
});

describe("Domain", () => {
  test("create, read, rename in place, update timers, delete", async () => {
    const created = await domains.create(master("example.com", { ttlSec: 1000, tags: ["b", "a"] }));
    expect(created.outs).toMatchObject({
      domain: "example.com",
      type: "master",
      soaEmail: "admin@example.com",
      ttlSec: 3600,
      status: "active",
      tags: ["a", "b"],
    });
    const inputs = master("Example.COM", { ttlSec: 1000, tags: ["a", "b", "a"] });
    expect(await domains.diff!(created.id, created.outs, inputs)).toMatchObject({ changes: false });

    const renamed = master("renamed.example", { ttlSec: 1000, tags: ["a", "b"] });
    expect(await domains.diff!(created.id, created.outs, renamed)).toMatchObject({ changes: true, replaces: [] });
    const updated = await domains.update!(created.id, created.outs, renamed);
    expect(updated.outs).toMatchObject({ domain: "renamed.example", ttlSec: 3600 });
    expect((await harness.client.domains.get(Number(created.id))).domain).toBe("renamed.example");

    // The type cannot change in place, and the name stays taken until the old domain is gone.
    expect(await domains.diff!(created.id, updated.outs!, { ...renamed, type: "slave", masterIps: ["192.0.2.1"] })).toMatchObject({
      replaces: ["type"],
      deleteBeforeReplace: true,
    });
    await domains.delete!(created.id, updated.outs!);
    expect(await harness.client.domains.listAll()).toEqual([]);
  });

  test("soaEmail changed behind Pulumi's back is read back as drift", async () => {
    const created = await domains.create(master());
    await harness.client.domains.update(Number(created.id), { soa_email: "other@example.com" });
    const read = await domains.read!(created.id, created.outs);
    expect(read.props!.soaEmail).toBe("other@example.com");
    expect(await domains.diff!(created.id, read.props!, master())).toMatchObject({ changes: true });
  });

  test("cloneFromId creates a clone with a copy of every record, then applies the program's own fields", async () => {
    const source = await domains.create(master());
    await records.create({ domainId: source.id, type: "A", name: "www", target: "192.0.2.1" });
    await records.create({ domainId: source.id, type: "MX", name: "", target: "mail", priority: 5 });
    const clone = await domains.create(master("clone.example", { cloneFromId: source.id, description: "the copy" }));
    expect(clone.outs).toMatchObject({ domain: "clone.example", description: "the copy", cloneFromId: Number(source.id) });
    const copied = await harness.client.domains.records.listAll(Number(clone.id));
    expect(copied.map((r) => `${r.type} ${r.name} ${r.target}`).sort()).toEqual(["A www 192.0.2.1", "MX  mail.example.com"]);
    expect(
      await domains.diff!(clone.id, clone.outs, master("clone.example", { cloneFromId: source.id, description: "the copy" })),
    ).toMatchObject({ changes: false });
    const read = await domains.read!(clone.id, clone.outs);
    expect(read.props!.cloneFromId).toBe(Number(source.id));
  });

  test("a create whose connection breaks after the API accepted it adopts the domain instead of orphaning it", async () => {
    harness.emulator.control.addFault({ pathPattern: "/v4/domains", method: "POST", kind: "reset-after", count: 1 });
    const created = await domains.create(master());
    const all = await harness.client.domains.listAll();
    expect(all).toHaveLength(1);
    expect(created.id).toBe(String(all[0]!.id));
  });
});
