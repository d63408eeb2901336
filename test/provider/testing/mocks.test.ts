/**
 * `computeMocks` under Pulumi's own mocks runtime (`pulumi.runtime.setMocks`), as a project's unit
 * test uses them: the README's program reads the outputs an `up` records (ids in the API's form,
 * `hosts.primary`, `port` by engine, `status` after the wait, secrets as secrets); what preview
 * refuses is refused, named by input; a preview answers with unknowns; data functions answer from
 * the seeded account and never from the shell's credentials; other providers go to the fallback.
 */
import * as pulumi from "@pulumi/pulumi";
import * as compute from "../../../provider";
import { VPC_REASONS } from "../../../sdk/resources/vpcs";
import { readmeProgram } from "../../support/readme-program";
import {
  computeMocks,
  demoEnvironment,
  outputValue,
  refusalOf,
  type ComputeMocks,
  type ComputeMocksOptions,
} from "../../../provider/testing";

let mocks: ComputeMocks;

/** New mocks (a fresh account) for the next program; the last ones are disposed after the test. */
async function useMocks(options: ComputeMocksOptions = {}, preview = false): Promise<ComputeMocks> {
  mocks = computeMocks(options);
  await pulumi.runtime.setMocks(mocks, "my-infra", "test", preview);
  return mocks;
}

afterEach(() => mocks?.dispose());

test("the README's program reads the outputs an up records: hosts.primary, port by engine, status after the wait, ids, secrets", async () => {
  await useMocks();
  const { vpc, data, web, appFirewall, zone, db, outputs } = readmeProgram();
  const { dbHost, dbPassword } = outputs;

  expect(await outputValue(dbHost)).toMatch(/^\S+\.\S+$/);
  expect(await outputValue(db.port)).toBe(3306);
  expect(await outputValue(db.status)).toBe("active");
  expect(await outputValue(db.engineId)).toBe("mysql/8"); // the program's spelling, as state keeps it
  expect(await outputValue(db.allowList)).toEqual(["10.0.2.0/24", "10.0.1.11", "10.0.1.12"]);
  expect(await outputValue(db.created)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
  // Ids in the API's form: numbers, as strings.
  expect(await outputValue(vpc.id)).toMatch(/^\d+$/);
  expect(await outputValue(data.vpcId)).toBe(Number(await outputValue(vpc.id)));
  expect(await outputValue(data.ipv4)).toBe("10.0.2.0/24");
  // The password is a secret, as in state; the host is not.
  expect(await pulumi.isSecret(dbPassword)).toBe(true);
  expect(await outputValue(dbPassword)).toEqual(expect.any(String));
  expect(await pulumi.isSecret(dbHost)).toBe(false);

  // What the program made is in the account the mocks answer from.
  const api = await mocks.api();
  const [database] = await api.client.databases.mysql.listAll();
  expect(database).toMatchObject({ id: Number(await outputValue(db.id)), status: "active", hosts: { primary: await outputValue(dbHost) } });
  // The app runs in the web subnet at the addresses the program names, behind its firewall, each
  // instance at a name of its own (an A record at its public address).
  const apps = (await api.client.computes.instances.listAll()).sort((a, b) => a.label.localeCompare(b.label));
  expect(apps.map((a) => ({ label: a.label, status: a.status }))).toEqual([
    { label: "app-1", status: "running" },
    { label: "app-2", status: "running" },
  ]);
  const records = await api.client.domains.records.listAll(Number(await outputValue(zone.id)));
  for (const [n, app] of apps.entries()) {
    const [config] = await api.client.computes.instances.configs.listAll(app.id);
    expect(config!.interfaces.find((i) => i.purpose === "vpc")).toMatchObject({
      subnet_id: Number(await outputValue(web.id)),
      ipv4: { vpc: `10.0.1.1${n + 1}` },
    });
    expect(records.filter((r) => r.name === app.label).map((r) => ({ type: r.type, target: r.target }))).toEqual([
      { type: "A", target: app.ipv4[0] },
    ]);
  }
  const devices = await api.client.networking.firewalls.devices.listAll(Number(await outputValue(appFirewall.id)));
  expect(devices.map((d) => d.entity.id).sort()).toEqual(apps.map((a) => a.id).sort());
});

test("an engine version the API does not offer is refused as preview refuses it, naming engineId", async () => {
  await useMocks();
  const db = new compute.MysqlDatabase("db", { label: "app-db", region: "us-iad", type: "g6-nanode-1", engineId: "mysql/8.0.99" });
  const refusal = await refusalOf(db);
  expect(refusal.message).toContain("property engineId value {mysql/8.0.99} has a problem");
  expect(refusal.message).toContain("getDatabaseEngines lists the versions a new database can use");
  // Refused before any create: the account has no database.
  expect(await (await mocks.api()).client.databases.mysql.listAll()).toEqual([]);
});

test("an input the spec's check refuses fails with the API's reason, before any request", async () => {
  await useMocks();
  const api = await mocks.api();
  api.control.clearRequests();
  const vpc = new compute.Vpc("bad", { label: "bad_label", region: "us-iad" });
  expect((await refusalOf(vpc)).message).toContain(`property label value {bad_label} has a problem: ${VPC_REASONS.labelChars}`);
  expect(api.control.listRequests()).toEqual([]);
});

test("a database whose provisioning fails fails its create as an up does, after the wait, in no real time", async () => {
  await useMocks({ seed: ({ control }) => void control.databases.failNextProvisioning() });
  const startedAt = (await mocks.api()).control.getClock().epochMs;
  const db = new compute.MysqlDatabase("db", { label: "app-db", region: "us-iad", type: "g6-nanode-1", engineId: "mysql/8" });
  const refusal = await refusalOf(db);
  expect(refusal.message).toMatch(/MySQL database \d+ was created but did not become ready: .*is failed/);
  // The provisioning's 15–30 minutes passed on the emulated clock, which a real wait could not do within the test's timeout.
  expect((await mocks.api()).control.getClock().epochMs - startedAt).toBeGreaterThanOrEqual(15 * 60_000);
  // Created, then failed: the account has it, as state would.
  expect((await (await mocks.api()).client.databases.mysql.listAll()).map((d) => d.status)).toEqual(["failed"]);
});

test("refusalOf rejects for a resource that was registered", async () => {
  await useMocks();
  const vpc = new compute.Vpc("fine", { label: "fine", region: "us-iad" });
  await expect(refusalOf(vpc)).rejects.toThrow(/Vpc::fine was registered: nothing refused it/);
});

test("a preview shows the checked inputs; what only the API computes is unknown, and nothing is created", async () => {
  await useMocks({}, true);
  const { vpc, db } = readmeProgram();
  expect(await outputValue(vpc.label)).toBe("app-net");
  expect(await outputValue(db.engineId)).toBe("mysql/8");
  for (const unknown of [vpc.id, db.port, db.status, db.hosts])
    expect(await outputValue(unknown as pulumi.Output<unknown>)).toBeUndefined();
  expect(await (await mocks.api()).client.vpcs.listAll()).toEqual([]);
});

test("data functions answer from the seeded account, and programs use what they find", async () => {
  await useMocks({
    seed: async (api) => {
      await demoEnvironment(api);
      await api.client.vpcs.create({ label: "made-by-hand", region: "us-iad" });
    },
  });
  const publicIps = compute.getIpsOutput({ type: "ipv4", public: true });
  expect((await outputValue(publicIps)).map((ip) => ip.address).sort()).toEqual(["198.51.100.10", "198.51.100.11"]);
  expect((await compute.getVpcs()).map((v) => v.label)).toEqual(["made-by-hand"]);

  const fw = new compute.Firewall("web", {
    label: "web-fw",
    inboundPolicy: "DROP",
    outboundPolicy: "ACCEPT",
    devices: { computes: publicIps.apply((ips) => ips.map((ip) => ip.computeId!)) },
  });
  const computeIds = (await outputValue(publicIps)).map((ip) => ip.computeId);
  expect(await outputValue(fw.devices)).toEqual({ computes: computeIds, nodebalancers: [] });
});

test("under the mocks, data functions never use the shell's credentials", async () => {
  const saved = { url: process.env.COMPUTE_API_URL, token: process.env.COMPUTE_TOKEN };
  process.env.COMPUTE_API_URL = "http://127.0.0.1:9/v4"; // nothing listens there
  process.env.COMPUTE_TOKEN = "a-real-token";
  try {
    await useMocks();
    expect((await compute.getRegions()).length).toBeGreaterThan(10);
  } finally {
    for (const [key, value] of [
      ["COMPUTE_API_URL", saved.url],
      ["COMPUTE_TOKEN", saved.token],
    ] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
});

/** A resource of another provider (as `@pulumi/random` declares it). */
class RandomPet extends pulumi.CustomResource {
  declare readonly name: pulumi.Output<string>;
  constructor(name: string, args: { length: number }) {
    super("random:index/randomPet:RandomPet", name, { ...args, name: undefined });
  }
}

test("other providers' resources and calls go to the fallback; without one, outputs are the inputs", async () => {
  const seen: string[] = [];
  await useMocks({
    fallback: {
      newResource: (args) => {
        seen.push(`${args.type} ${args.name}`);
        return { id: "pet-1", state: { ...args.inputs, id: "pet-1", name: "brave-otter" } };
      },
      call: (args) => ({ token: args.token }),
    },
  });
  const pet = new RandomPet("pet", { length: 2 });
  const named = new compute.Vpc("named", { label: pet.name, region: "us-iad" });
  expect(await outputValue(named.label)).toBe("brave-otter");
  expect(seen).toEqual(["random:index/randomPet:RandomPet pet"]);

  await useMocks();
  const other = new RandomPet("pet", { length: 2 });
  expect(await outputValue(other.id)).toBe("pet_id");
});

test("opts.id reads an existing object from the account", async () => {
  let id = 0;
  await useMocks({ seed: async ({ client }) => void (id = (await client.vpcs.create({ label: "made-by-hand", region: "us-iad" })).id) });
  await mocks.api(); // seeded
  const vpc = new compute.Vpc("existing", { label: "made-by-hand", region: "us-iad" }, { id: String(id) });
  expect(await outputValue(vpc.id)).toBe(String(id));
  expect(await outputValue(vpc.label)).toBe("made-by-hand");
});

test("dispose stops the account's API", async () => {
  await useMocks();
  const api = await mocks.api();
  await mocks.dispose();
  await expect(fetch(`${api.url}/regions`)).rejects.toThrow();
});
