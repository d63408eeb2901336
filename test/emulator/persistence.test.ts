/** State survives a restart when a state file is configured; writes are atomic. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startTestEmulator, vpcBody } from "./helpers";

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
  first.control.seedCompute({ label: "c", region: "es-mad", configs: [{ interfaces: [{ purpose: "vpc", subnet_id: vpc.subnets[0].id }] }] });
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
