/** State survives a restart when a state file is configured; writes are atomic. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startTestEmulator, vpcBody } from "../helpers";

let folder: string;
beforeEach(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), "emulator-state-"));
});
afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

test("objects, events, tokens and id counters survive a restart", async () => {
  const stateFile = path.join(folder, "nested", "state.json");
  const first = await startTestEmulator({ stateFile });
  const vpc = (await first.post("/vpcs", vpcBody("kept", { subnets: [{ label: "s", ipv4: "10.0.0.0/24" }] }))).body;
  const other = first.control.createAccount();
  const scoped = first.control.createToken({ scopes: ["vpc:read_only"] });
  first.control.seedCompute({
    label: "c",
    region: "es-mad",
    configs: [{ interfaces: [{ purpose: "vpc", subnet_id: vpc.subnets[0].id }] }],
  });
  const token = first.token;
  await first.close();
  expect(fs.existsSync(stateFile)).toBe(true);
  expect(fs.readdirSync(path.dirname(stateFile))).toEqual(["state.json"]); // no temp files left behind

  const second = await startTestEmulator({ stateFile });
  try {
    expect(second.token).toBe(token); // no token given: the saved one is reused
    const got = await second.get(`/vpcs/${vpc.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ label: "kept", created: vpc.created });
    expect(got.body.subnets[0].computes).toHaveLength(1);
    expect((await second.get("/account/events")).body.results).toBe(2);
    expect((await second.get("/vpcs", { token: scoped.token })).status).toBe(200);
    expect((await second.get("/vpcs", { token: other.token })).body.results).toBe(0);
    const next = (await second.post("/vpcs", vpcBody("new"))).body;
    expect(next.id).toBeGreaterThan(vpc.id);
  } finally {
    await second.close();
  }
});

test("a token given at restart becomes the primary token; the saved one stays valid", async () => {
  const stateFile = path.join(folder, "state.json");
  const first = await startTestEmulator({ stateFile });
  await first.post("/vpcs", vpcBody("kept"));
  const oldToken = first.token;
  await first.close();
  const second = await startTestEmulator({ stateFile, token: "a".repeat(64) });
  try {
    expect(second.token).toBe("a".repeat(64));
    expect((await second.get("/vpcs")).body.results).toBe(1);
    expect((await second.get("/vpcs", { token: oldToken })).body.results).toBe(1);
  } finally {
    await second.close();
  }
});

test("failed requests do not rewrite the file; reads never do", async () => {
  const stateFile = path.join(folder, "state.json");
  const emu = await startTestEmulator({ stateFile });
  try {
    await emu.post("/vpcs", vpcBody("one"));
    const saved = fs.readFileSync(stateFile, "utf8");
    await emu.post("/vpcs", vpcBody("bad_label"));
    await emu.get("/vpcs");
    expect(fs.readFileSync(stateFile, "utf8")).toBe(saved);
  } finally {
    await emu.close();
  }
});

test("emulated time never goes back across a restart", async () => {
  const stateFile = path.join(folder, "state.json");
  const first = await startTestEmulator({ stateFile });
  first.control.setClock({ advanceMs: 30 * 86_400_000 });
  const before = first.control.getClock().epochMs;
  await first.close();
  const second = await startTestEmulator({ stateFile });
  try {
    expect(second.control.getClock().epochMs).toBeGreaterThanOrEqual(before);
  } finally {
    await second.close();
  }
});

test("reset clears the persisted state too", async () => {
  const stateFile = path.join(folder, "state.json");
  const first = await startTestEmulator({ stateFile });
  await first.post("/vpcs", vpcBody("gone"));
  await first.ctl("POST", "/reset");
  await first.close();
  const second = await startTestEmulator({ stateFile });
  try {
    expect((await second.get("/vpcs")).body.results).toBe(0);
  } finally {
    await second.close();
  }
});

/**
 * State files written by earlier emulators: one with every service's objects, written just before
 * the services registered their own state (`fixtures/state-all-services.json`, emulated time
 * 2024-05-01), and the same cut down to what the first version stored (VPCs, seeded instances and
 * nodebalancers, events, users and tokens: `fixtures/state-vpcs-only.json`). Both must load.
 */
describe("state files of earlier emulators", () => {
  const fixture = (name: string) => path.join(__dirname, "../fixtures", name);
  const PRIMARY = "0".repeat(64);

  /** Starts on a copy (the emulator rewrites its file) and returns the tokens by label. */
  async function startFrom(name: string) {
    const stateFile = path.join(folder, "state.json");
    fs.copyFileSync(fixture(name), stateFile);
    const saved = JSON.parse(fs.readFileSync(stateFile, "utf8")) as { tokens: Record<string, { label: string; account: string }> };
    const token = (label: string, account = "primary") =>
      Object.values(saved.tokens).find((t) => t.label === label && t.account === account) as unknown as { token: string };
    return { emu: await startTestEmulator({ stateFile }), token };
  }

  test("every service's objects come back, pending work completes, counters continue", async () => {
    const { emu, token } = await startFrom("state-all-services.json");
    try {
      expect(emu.token).toBe(PRIMARY);
      const vpcs = (await emu.get("/vpcs")).body;
      expect(vpcs.data.map((v: { label: string }) => v.label)).toEqual(["kept-vpc"]);
      const subnet = vpcs.data[0].subnets[0];
      expect(subnet).toMatchObject({ label: "front", computes: [{ id: 52000000, interfaces: [{ id: 830000, active: false }] }] });
      expect((await emu.get("/vpcs/10000/ips")).body.data[0]).toMatchObject({ address: "10.0.0.2", nat_1_1: "198.51.100.10" });
      expect((await emu.get("/networking/vlans")).body.data).toEqual([expect.objectContaining({ label: "backend", computes: [52000000] })]);
      const firewalls = (await emu.get("/networking/firewalls")).body.data;
      expect(firewalls.map((f: { label: string }) => f.label)).toEqual(["kept-fw"]);
      expect((await emu.get("/networking/firewalls/228000/devices")).body.results).toBe(2);
      expect((await emu.get("/domains")).body.data.map((d: { domain: string }) => d.domain)).toEqual(["kept.example", "pending.example"]);
      expect((await emu.get("/domains/1900000/records")).body.data).toEqual([expect.objectContaining({ type: "A", name: "www" })]);
      // The render was pending when the file was written: it happens once the domain is read.
      expect((await emu.get("/domains/1900001/zone-file")).body.zone_file.length).toBeGreaterThan(0);
      expect((await emu.get("/networking/ips/198.51.100.10")).body).toMatchObject({ rdns: "www.kept.example", compute_id: 52000000 });
      expect((await emu.get("/networking/ips/192.168.130.5")).body).toMatchObject({ public: false, compute_id: 52000000 });
      expect((await emu.get("/networking/ipv6/ranges")).body.results).toBe(1);
      // The upload that never received data was deleted 24 hours later; the others finished.
      const images = (await emu.get("/images", { query: { page_size: 25 } })).body.data.filter((i: { is_public: boolean }) => !i.is_public);
      const imageStates = images.map((i: { label: string; status: string }) => [i.label, i.status]);
      expect(imageStates).toEqual([
        ["captured", "available"],
        ["uploaded", "available"],
      ]);
      const databases = (await emu.get("/databases/instances")).body.data;
      const databaseStates = databases.map((d: { label: string; status: string }) => [d.label, d.status]);
      expect(databaseStates).toEqual([
        ["kept-db", "active"],
        ["pending-pg", "failed"],
      ]);
      const backups = (await emu.get("/databases/mysql/instances/28000/backups")).body.data;
      expect(backups.some((b: { label: string }) => b.label === "snap")).toBe(true);
      const tickets = (await emu.get("/support/tickets")).body.data;
      const entity = expect.objectContaining({ id: 52000000 });
      expect(tickets).toEqual([expect.objectContaining({ summary: "kept ticket", status: "open", entity })]);
      // The account's Managed service was on, and one forced provisioning failure is left.
      expect((await emu.post("/support/tickets", { summary: "m", description: "x", managed_issue: true })).status).toBe(200);
      expect(emu.control.databases.failNextProvisioning({ count: 0 })).toEqual({ account: "primary", remaining: 0 });
      const restricted = token("restricted").token;
      expect((await emu.get("/vpcs", { token: restricted })).body.results).toBe(1);
      expect((await emu.put("/vpcs/10000", { label: "no" }, { token: restricted })).status).toBe(403);
      expect((await emu.get("/networking/firewalls", { token: restricted })).body.results).toBe(1);
      expect((await emu.get("/databases/instances", { token: restricted })).body.results).toBe(1);
      expect((await emu.get("/vpcs", { token: token("scoped").token })).status).toBe(200);
      const theirs = (await emu.get("/vpcs", { token: token("personal", "other").token })).body.data;
      expect(theirs.map((v: { label: string }) => v.label)).toEqual(["theirs"]);
      expect((await emu.post("/vpcs", vpcBody("next"))).body.id).toBe(10002);
      const events = (await emu.get("/account/events")).body;
      expect(events.data[0]).toMatchObject({ id: 600000020, action: "vpc_create" });
      const seeded = emu.control.seedCompute({ label: "new", region: "us-iad" });
      expect([seeded.id, seeded.disks![0]!.id]).toEqual([52000002, 108900002]);
      expect(emu.control.seedNodeBalancer({ label: "lb2", region: "us-iad" }).id).toBe(300001);
    } finally {
      await emu.close();
    }
  });

  test("a file from before databases, domains, firewalls, images, IPs and support loads with those empty", async () => {
    const { emu, token } = await startFrom("state-vpcs-only.json");
    try {
      expect((await emu.get("/vpcs")).body.results).toBe(1);
      expect((await emu.get("/account/events")).body.results).toBe(4);
      for (const list of ["/networking/firewalls", "/domains", "/databases/instances", "/support/tickets", "/networking/ipv6/ranges"]) {
        expect([list, (await emu.get(list)).body.results]).toEqual([list, 0]);
      }
      const images = (await emu.get("/images", { query: { page_size: 25 } })).body.data;
      expect(images.length).toBeGreaterThan(0);
      expect(images.every((i: { is_public: boolean }) => i.is_public)).toBe(true);
      // Instances seeded before addresses and disks existed: public addresses only, no SLAAC address.
      const addresses = (await emu.get("/networking/ips")).body.data.map((a: { address: string }) => a.address);
      expect(addresses).toEqual(["198.51.100.10", "198.51.100.11"]);
      const rules = { inbound_policy: "DROP", outbound_policy: "ACCEPT" };
      const firewall = await emu.post("/networking/firewalls", { label: "first", rules });
      expect(firewall.body.id).toBe(228000);
      const restricted = token("restricted").token;
      expect((await emu.get("/networking/firewalls", { token: restricted })).body.results).toBe(0);
      expect((await emu.get("/vpcs", { token: restricted })).body.results).toBe(1);
      expect((await emu.post("/support/tickets", { summary: "m", description: "x", managed_issue: true })).status).toBe(400);
    } finally {
      await emu.close();
    }
  });
});
