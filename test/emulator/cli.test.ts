/** The `compute-emulator` command: argument parsing and a real start/stop. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawn } from "node:child_process";
import { CLI_TIME_SCALE, parseCliArgs, runCli, STRICT_LINE, timeLines, USAGE } from "../../emulator/cli";
import { STRICT_ENV } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { call } from "./helpers";
import { COMPUTES } from "../../emulator/services/computes/store";
import { NODEBALANCERS } from "../../emulator/services/nodebalancers/store";

test("flags map to emulator options", () => {
  expect(
    parseCliArgs([
      "--port",
      "4000",
      "--host",
      "0.0.0.0",
      "--token",
      "abc",
      "--time-scale",
      "60",
      "--state-file",
      "s.json",
      "--seed",
      "9",
      "--request-log-size",
      "500",
      "--log",
    ]),
  ).toEqual({
    port: 4000,
    host: "0.0.0.0",
    token: "abc",
    timeScale: 60,
    stateFile: "s.json",
    seed: 9,
    requestLogSize: 500,
    logger: true,
  });
  expect(parseCliArgs([])).toEqual({});
  expect(parseCliArgs(["--help"])).toBeUndefined();
});

test.each([
  ["--port", "70000"],
  ["--port", "x"],
  ["--time-scale", "-1"],
  ["--seed", "1.5"],
  ["--request-log-size", "-1"],
  ["--request-log-size", "2.5"],
  ["--bogus", "1"],
])("%s %s is refused", (flag, value) => {
  expect(() => parseCliArgs([flag, value])).toThrow();
});

test("runCli prints the URLs and token and serves until closed", async () => {
  const lines: string[] = [];
  const running = await runCli(["--token", "c".repeat(64)], (line) => lines.push(line), { handleSignals: false });
  try {
    expect(running).toBeDefined();
    expect(lines.join("\n")).toContain(running!.url);
    expect(lines.join("\n")).toContain(running!.controlUrl);
    expect(lines.join("\n")).toContain("c".repeat(64));
    const r = await call(running!.url, "GET", "/vpcs", {}, "c".repeat(64));
    expect(r.status).toBe(200);
  } finally {
    await running?.close();
  }
});

test("--help prints the usage and starts nothing", async () => {
  const lines: string[] = [];
  expect(await runCli(["--help"], (line) => lines.push(line))).toBeUndefined();
  expect(lines).toEqual([USAGE]);
});

test("--version and -v print package.json's version and start nothing; the usage names them", async () => {
  const { version } = JSON.parse(fs.readFileSync(path.join(__dirname, "../../package.json"), "utf8")) as { version: string };
  for (const flag of ["--version", "-v"]) {
    expect(parseCliArgs([flag])).toEqual({ version: true });
    const lines: string[] = [];
    expect(await runCli([flag, "--port", "0"], (line) => lines.push(line))).toBeUndefined();
    expect(lines).toEqual([version]);
  }
  expect(USAGE).toMatch(/^ {2}-v, --version {7}print the version/m);
});

test("--demo-environment seeds what the examples expect and prints the config for their stacks, once per state file", async () => {
  expect(parseCliArgs(["--demo-environment"])).toEqual({ demoEnvironment: true });
  const stateFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pc-emulator-cli-")), "state.json");
  const start = async () => {
    const lines: string[] = [];
    const running = (await runCli(["--demo-environment", "--state-file", stateFile], (line) => lines.push(line), {
      handleSignals: false,
    }))!;
    return { running, out: lines.join("\n") };
  };
  const first = await start();
  let nodebalancer: number;
  try {
    const ips = await call(first.running.url, "GET", "/networking/ips", {}, first.running.token);
    expect(
      ips.body.data
        .filter((ip: { public: boolean; type: string }) => ip.public && ip.type === "ipv4")
        .map((ip: { address: string }) => ip.address)
        .sort(),
    ).toEqual(["198.51.100.10", "198.51.100.11"]);
    nodebalancer = NODEBALANCERS.of(first.running.emulator.state.accounts.primary!)[0]!.id;
    const disk = COMPUTES.of(first.running.emulator.state.accounts.primary!)[0]!.disks![0]!.id;
    expect(first.out).toContain(`pulumi config set --secret compute:token ${first.running.token}`);
    expect(first.out).toContain(`pulumi config set compute:apiUrl ${first.running.url}`);
    expect(first.out).toContain(`pulumi config set compute-quickstart:nodebalancerId ${nodebalancer}`);
    expect(first.out).toContain(`pulumi config set compute-examples:diskId ${disk}`);
  } finally {
    await first.running.close();
  }
  // Restarted on the same state: the same objects, named again, not seeded twice.
  const second = await start();
  try {
    expect(second.out).toContain("demo environment (from the state file)");
    expect(second.out).toContain(`pulumi config set compute-quickstart:nodebalancerId ${nodebalancer}`);
    expect(COMPUTES.of(second.running.emulator.state.accounts.primary!)).toHaveLength(2);
  } finally {
    await second.running.close();
  }
});

test("the banner says when strict mode is on, and only then", async () => {
  const banner = async (argv: string[]) => {
    const lines: string[] = [];
    const running = (await runCli(argv, (line) => lines.push(line), { handleSignals: false }))!;
    await running.close();
    return { strict: running.emulator.strict, text: lines.join("\n") };
  };
  const saved = process.env[STRICT_ENV];
  delete process.env[STRICT_ENV];
  try {
    expect(await banner(["--strict"])).toEqual({ strict: true, text: expect.stringContaining(STRICT_LINE) });
    const lenient = await banner([]);
    expect(lenient.strict).toBe(false);
    expect(lenient.text).not.toContain("strict:");
  } finally {
    process.env[STRICT_ENV] = saved;
  }
});

describe("time scale", () => {
  test("the command runs fast by default and says so; --time-scale 1 keeps real timing", async () => {
    expect(CLI_TIME_SCALE).toBe(300);
    expect(USAGE).toContain(`(default ${CLI_TIME_SCALE}: a MySQL`);
    const lines: string[] = [];
    const running = (await runCli([], (line) => lines.push(line), { handleSignals: false }))!;
    try {
      expect(running.emulator.clock.scale).toBe(CLI_TIME_SCALE);
      const banner = lines.join("\n");
      expect(banner).toContain("time:    runs 300× faster than real time: a MySQL database provisions in ~3–6 s");
      expect(banner).toContain("an image upload URL\n           is valid for 4.8 min; --time-scale 1 for real timing");
      // The control API reports the same scale.
      const clock = await call(running.controlUrl, "GET", "/clock", {});
      expect(clock.body.scale).toBe(300);
    } finally {
      await running.close();
    }
    const real: string[] = [];
    const slow = (await runCli(["--time-scale", "1"], (line) => real.push(line), { handleSignals: false }))!;
    try {
      expect(slow.emulator.clock.scale).toBe(1);
      expect(real.join("\n")).toContain(
        "time:    real time: a MySQL database provisions in 15–30 min; --time-scale 300 runs it 300× faster",
      );
    } finally {
      await slow.close();
    }
  });

  test.each([
    [0, false, ["time:    stopped (--time-scale 0): it moves only by POST /__emulator/clock {advanceMs}"]],
    [
      60,
      false,
      [
        "time:    runs 60× faster than real time: a MySQL database provisions in ~15–30 s, an image upload URL",
        "         is valid for 24 min; --time-scale 1 for real timing",
      ],
    ],
    [1, true, ["time:    real time: a MySQL database provisions in 15–30 min; --time-scale 300 runs it 300× faster"]],
  ])("the banner at scale %s (rate limits %s)", (scale, rateLimits, expected) => {
    expect(timeLines(scale, rateLimits)).toEqual(expected);
  });

  test("with --rate-limits at a fast scale, the banner says the windows shrink", () => {
    expect(timeLines(300, true)[2]).toBe(
      "rate limits: windows run on the emulated clock (800 requests per 0.4 s real); --time-scale 1 for the documented windows",
    );
  });

  test("a MySQL database created through the standalone emulator at its default scale is active within seconds", async () => {
    const running = (await runCli([], () => undefined, { handleSignals: false }))!;
    const client = new ComputeClient({ baseUrl: running.url, token: running.token });
    try {
      // The standalone emulator runs at its default scale, so 15–30 emulated minutes take 3–6 s.
      expect(running.emulator.clock.scale).toBe(CLI_TIME_SCALE);
      const created = await client.databases.mysql.create({ label: "fast-db", region: "us-iad", type: "g6-nanode-1", engine: "mysql/8" });
      expect(created.status).toBe("provisioning");
      const active = await client.databases.mysql.waitForStatus(created.id, { timeoutMs: 20_000, firstIntervalMs: 200, intervalMs: 500 });
      expect(active.status).toBe("active");
      expect(active.hosts.primary).toEqual(expect.stringMatching(/\S/));
      // Active once its provisioning time had passed on the emulated clock, well inside the 20 s the wait allowed.
      const provisionedMinutes = (Date.parse(`${active.updated}Z`) - Date.parse(`${created.created}Z`)) / 60_000;
      expect(provisionedMinutes).toBeGreaterThanOrEqual(15);
      expect(provisionedMinutes).toBeLessThanOrEqual(30);
    } finally {
      await client.close();
      await running.close();
    }
  });
});

describe("started by npm (npx compute-emulator &), the command ends with the npm process a shell's kill stops", () => {
  let logs: string;
  beforeAll(() => (logs = fs.mkdtempSync(path.join(os.tmpdir(), "pc-cli-parent-"))));
  afterAll(() => fs.rmSync(logs, { recursive: true, force: true }));

  /** Starts the built command in the background of a shell that ends once it listens; the emulator's pid. */
  async function startOrphaned(env: NodeJS.ProcessEnv): Promise<number> {
    const cli = path.join(__dirname, "../../dist/emulator/cli.js");
    const log = path.join(logs, `out-${Math.random()}`);
    const script = `"${process.execPath}" "${cli}" --port 0 >"${log}" 2>&1 & echo $!; until grep -q listening "${log}"; do sleep 0.1; done`;
    const shell = spawn("sh", ["-c", script], { env });
    const pid = Number((await new Promise<string>((resolve) => shell.stdout.once("data", (d) => resolve(String(d))))).trim());
    await new Promise((resolve) => shell.once("exit", resolve));
    return pid;
  }
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const waitWhile = async (condition: () => boolean) => {
    for (let i = 0; i < 100 && condition(); i++) await new Promise((r) => setTimeout(r, 100));
  };

  test("its parent gone, an emulator npm started closes", async () => {
    const pid = await startOrphaned({ ...process.env, npm_command: "exec" });
    await waitWhile(() => alive(pid));
    expect(alive(pid)).toBe(false);
  });

  test("one started otherwise keeps running without its parent, as a command does", async () => {
    const env = { ...process.env };
    delete env.npm_command;
    const pid = await startOrphaned(env);
    try {
      await new Promise((r) => setTimeout(r, 1_500));
      expect(alive(pid)).toBe(true);
    } finally {
      process.kill(pid, "SIGTERM");
    }
    await waitWhile(() => alive(pid));
  });
});
