/** The `compute-emulator` command: argument parsing and a real start/stop. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseCliArgs, runCli, USAGE } from "../../emulator/cli";
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
