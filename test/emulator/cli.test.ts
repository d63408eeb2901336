/** The `compute-emulator` command: argument parsing and a real start/stop. */
import { parseCliArgs, runCli, USAGE } from "../../emulator/cli";
import { call } from "./helpers";

test("flags map to emulator options", () => {
  expect(parseCliArgs(["--port", "4000", "--host", "0.0.0.0", "--token", "abc", "--time-scale", "60", "--state-file", "s.json", "--seed", "9", "--log"])).toEqual({
    port: 4000,
    host: "0.0.0.0",
    token: "abc",
    timeScale: 60,
    stateFile: "s.json",
    seed: 9,
    logger: true,
  });
  expect(parseCliArgs([])).toEqual({});
  expect(parseCliArgs(["--help"])).toBeUndefined();
});

test.each([["--port", "70000"], ["--port", "x"], ["--time-scale", "-1"], ["--seed", "1.5"], ["--bogus", "1"]])("%s %s is refused", (flag, value) => {
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
