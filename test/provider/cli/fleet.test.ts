/**
 * `drift --all` without the engine: project folders found by name, stack names resolved, the
 * bounded concurrency, busy stacks told from failed ones, progress lines. The real refresh
 * previews, on a PostgreSQL backend, are in test/e2e/team.e2e.test.ts.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { DriftReport } from "../../../provider/cli/drift";
import {
  checkFleet,
  checkOne,
  engineMessage,
  findProjects,
  projectOf,
  qualify,
  selectStacks,
  type FleetStack,
} from "../../../provider/cli/fleet";

const drifted: DriftReport["drift"] = [{ resource: "www", type: "DomainRecord", field: "target", state: "10.0.0.1", cloud: "10.9.9.9" }];

describe("findProjects", () => {
  let root: string;
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "pc-fleet-"));
    const project = (dir: string, text: string) => {
      fs.mkdirSync(path.join(root, dir), { recursive: true });
      fs.writeFileSync(path.join(root, dir, "Pulumi.yaml"), text);
    };
    project("network", "name: network\nruntime: nodejs\n");
    project("apps/web", 'name: "web" # the web app\nruntime: nodejs\n');
    project("node_modules/some-package", "name: ignored\n");
    project("a/b/c", "name: too-deep\n");
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  test("maps each project name to its folder, two levels down, skipping node_modules", () => {
    expect(Object.fromEntries(findProjects(root))).toEqual({ network: path.join(root, "network"), web: path.join(root, "apps/web") });
  });

  test("a project folder itself is found", () => {
    expect([...findProjects(path.join(root, "network")).keys()]).toEqual(["network"]);
  });
});

describe("stack names", () => {
  const all: FleetStack[] = [
    { stack: "organization/network/prod", project: "network", dir: "/n" },
    { stack: "organization/web/prod", project: "web", dir: "/w" },
    { stack: "organization/web/staging", project: "web", dir: "/w" },
  ];

  test("the project is the name's second-last part, else the fallback", () => {
    expect(projectOf("organization/web/prod", "x")).toBe("web");
    expect(projectOf("web/prod", "x")).toBe("web");
    expect(projectOf("prod", "x")).toBe("x");
  });

  test("a short name (the listing's own project) is qualified as the backend names it", () => {
    expect(qualify("prod", "web")).toBe("organization/web/prod");
    expect(qualify("organization/network/prod", "web")).toBe("organization/network/prod");
  });

  test("every stack without --stacks; fully qualified, project/stack and unique short names", () => {
    expect(selectStacks(all)).toBe(all);
    expect(selectStacks(all, ["organization/network/prod", "web/prod", "staging"]).map((s) => s.stack)).toEqual([
      "organization/network/prod",
      "organization/web/prod",
      "organization/web/staging",
    ]);
  });

  test("an unknown or ambiguous name is refused, naming what exists", () => {
    expect(() => selectStacks(all, ["nope"])).toThrow(/no stack nope in the backend \(stacks: organization\/network\/prod, /);
    expect(() => selectStacks(all, ["prod"])).toThrow(
      "stack name prod is ambiguous (organization/network/prod, organization/web/prod); name it as project/stack",
    );
  });
});

describe("checking stacks", () => {
  const target: FleetStack = { stack: "organization/web/prod", project: "web", dir: "/w" };

  test("clean, drift, busy (a held lock) and error", async () => {
    expect(await checkOne(target, async () => ({ stack: "x", resources: 3, drift: [] }))).toMatchObject({ status: "clean", resources: 3 });
    expect(await checkOne(target, async () => ({ stack: "x", resources: 3, drift: drifted }))).toMatchObject({
      status: "drift",
      drift: drifted,
    });
    const locked = new Error(
      "code: 255\n stdout: \n stderr: error: the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with `pulumi cancel`.\n  postgres://****:****@db/.pulumi/locks/organization/web/prod/1.json: created by ci@runner-2 (pid 7) at 2026-11-25T23:00:00Z\n",
    );
    const busy = await checkOne(target, () => Promise.reject(locked));
    expect(busy.status).toBe("busy");
    expect(busy.message).toMatch(/^error: the stack is currently locked by 1 lock\(s\)/);
    expect(busy.message).toContain("created by ci@runner-2");
    expect(
      await checkOne(target, () => Promise.reject(new Error("stderr: error: decrypting secret: incorrect passphrase\n"))),
    ).toMatchObject({
      status: "error",
      message: "error: decrypting secret: incorrect passphrase",
    });
  });

  test("a stack whose project folder is missing is an error, not skipped", async () => {
    const check = jest.fn();
    const result = await checkOne({ stack: "organization/gone/prod", project: "gone" }, check);
    expect(check).not.toHaveBeenCalled();
    expect(result).toMatchObject({ status: "error", message: expect.stringContaining("no project folder for project gone") });
  });

  test("engineMessage keeps the engine's stderr, or the whole message", () => {
    expect(engineMessage(new Error("code: 255\n stdout: x\n stderr: error: boom\n err?: Error"))).toBe("error: boom");
    expect(engineMessage("plain")).toBe("plain");
  });

  test("at most `parallel` checks at once, results in the stacks' order, progress for each", async () => {
    const targets = Array.from({ length: 7 }, (_, i) => ({ stack: `organization/app/s${i}`, project: "app", dir: "/a" }));
    let running = 0;
    let peak = 0;
    const lines: string[] = [];
    const report = await checkFleet(
      targets,
      3,
      async (t) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 5 + (7 - Number(t.stack.slice(-1))) * 3));
        running--;
        return { stack: t.stack, resources: 1, drift: t.stack.endsWith("s4") ? drifted : [] };
      },
      (line) => lines.push(line),
    );
    expect(peak).toBe(3);
    expect(report.stacks.map((s) => s.stack)).toEqual(targets.map((t) => t.stack));
    expect(report.summary).toEqual({ clean: 6, drift: 1, busy: 0, error: 0 });
    expect(lines.filter((l) => l.startsWith("checking "))).toHaveLength(7);
    const done = lines.filter((l) => /^\[\d\/7\]/.test(l));
    expect(done.map((l) => l.slice(0, 5))).toEqual(["[1/7]", "[2/7]", "[3/7]", "[4/7]", "[5/7]", "[6/7]", "[7/7]"]);
    expect(done.find((l) => l.includes("s4"))).toMatch(/organization\/app\/s4: drift: 1 field\(s\) of 1 resource\(s\)/);
  });
});

describe("held locks", () => {
  const target: FleetStack = { stack: "organization/web/prod", project: "web", dir: "/w" };

  test("a stack whose lock entry is there is busy and not refreshed", async () => {
    const check = jest.fn();
    const result = await checkOne(target, check, async () => [{ username: "ci", hostname: "runner-2", pid: 7, timestamp: "t" }]);
    expect(check).not.toHaveBeenCalled();
    expect(result.status).toBe("busy");
    expect(result.message).toContain("created by ci@runner-2 (pid 7) at t");
  });

  test("no entry, or a backend that cannot say: checked", async () => {
    const check = async () => ({ stack: "x", resources: 1, drift: [] });
    expect((await checkOne(target, check, async () => [])).status).toBe("clean");
    expect((await checkOne(target, check, async () => undefined)).status).toBe("clean");
  });
});
