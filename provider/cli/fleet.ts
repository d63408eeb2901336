/**
 * `pulumi-compute drift --all` / `--stacks a,b,c`: the drift check of `drift.ts` over many stacks
 * of the current backend, `--parallel` at a time (default 4), then one report for the fleet.
 *
 * Stacks come from the backend (its store, see `../stores/backend-store.ts`), so a stack nobody has checked
 * out is not forgotten; each is refreshed from its project's folder, found by the `name:` of a Pulumi.yaml
 * in `--cwd` or in the folders below it (a repository holding `network/`, `app/`, …). A stack whose
 * project folder is missing is an error, not a silent gap.
 *
 * Each refresh preview is its own `pulumi` process with its own provider; their clients share the
 * account's rate limit through the API's answers (`X-RateLimit-Remaining`, read by the sdk's
 * pacer), so parallel checks slow down together instead of running into 429s.
 *
 * A stack whose lock another runner holds is `busy`: reported, not failed, and not checked (its
 * state is mid-change, so a refresh preview would report the update in flight as drift). A refresh
 * preview does not look at the lock, so the lock entries are read first (`../stores/backend-store.ts`).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { mapBounded } from "../../sdk/core/pagination";
import { pulumiCommand } from "../stack/pulumi-cli";
import { findDrift, type DriftReport } from "./drift";
import { fleetExitCode, fleetReport, formatFleetReport, junitXml, outcome, type FleetReport, type StackResult } from "./fleet-report";
import { EXIT } from "./exit";
import { backendUrlOf, describeLocks, readLocks, readStacks, type LockHolder } from "../stores/backend-store";

export interface FleetOptions {
  /** The project folder, or a folder holding project folders. */
  cwd: string;
  /** Stack names to check (`prod`, `app/prod` or `organization/app/prod`); default every stack. */
  stacks?: string[];
  parallel: number;
  json: boolean;
  /** Where to write the JUnit XML report. */
  junit?: string;
}

/** One stack to check: its name in the backend, its project, and the project's folder (if found). */
export interface FleetStack {
  stack: string;
  project: string;
  dir?: string;
}

/** How one stack is checked: `drift.ts`'s refresh preview, replaced in unit tests. */
export type CheckStack = (target: FleetStack) => Promise<DriftReport>;

/** Who holds the stack's lock (none: free; `undefined`: the backend cannot say). */
export type LockProbe = (target: FleetStack) => Promise<LockHolder[] | undefined>;

const noProbe: LockProbe = async () => undefined;

/** The engine's words for a stack whose lock another process holds (diy backends and the service). */
const LOCKED = /currently locked by|another update is currently in progress|stack is currently being updated/i;

const SKIP = new Set(["node_modules", "dist"]);

/** Project folders by project name: `root` and its subfolders up to `depth` levels down. */
export function findProjects(root: string, depth = 2): Map<string, string> {
  const found = new Map<string, string>();
  const visit = (dir: string, level: number) => {
    const file = ["Pulumi.yaml", "Pulumi.yml"].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
    if (file) {
      const name = /^name:\s*["']?([^"'\s#]+)/m.exec(fs.readFileSync(file, "utf8"))?.[1];
      if (name && !found.has(name)) found.set(name, dir);
    }
    if (level >= depth) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && !entry.name.startsWith(".") && !SKIP.has(entry.name)) visit(path.join(dir, entry.name), level + 1);
    }
  };
  visit(path.resolve(root), 0);
  return found;
}

/** `organization/app/prod` → `app`; a name without a project belongs to `fallback`. */
export function projectOf(stack: string, fallback: string): string {
  const parts = stack.split("/");
  return parts.length >= 2 ? parts[parts.length - 2]! : fallback;
}

/**
 * The name a diy backend gives a stack everywhere: `pulumi stack ls --all` shortens the stacks of
 * the project it runs in (`prod`), and names the others in full (`organization/app/prod`).
 */
export function qualify(stack: string, project: string): string {
  return stack.includes("/") ? stack : `organization/${project}/${stack}`;
}

/**
 * The stacks `wanted` names among the backend's `all` (every one when `wanted` is absent). A name
 * may be short (`prod`, when only one project has it), `app/prod`, or fully qualified.
 */
export function selectStacks(all: FleetStack[], wanted?: string[]): FleetStack[] {
  if (!wanted) return all;
  return wanted.map((name) => {
    const matches = all.filter(
      (s) => s.stack === name || `${s.project}/${s.stack.split("/").pop()}` === name || s.stack.split("/").pop() === name,
    );
    if (matches.length === 1) return matches[0]!;
    const known = all.map((s) => s.stack).join(", ") || "none";
    if (matches.length === 0) throw new Error(`no stack ${name} in the backend (stacks: ${known})`);
    throw new Error(`stack name ${name} is ambiguous (${matches.map((s) => s.stack).join(", ")}); name it as project/stack`);
  });
}

/**
 * Every stack of the backend the projects under `root` use, with its project's folder: read from
 * the backend's store where `stores/backend-store.ts` can (file://, postgres://), else `pulumi stack ls --all`.
 */
export async function listFleet(root: string): Promise<FleetStack[]> {
  const projects = findProjects(root);
  const first = [...projects.values()][0];
  if (!first) throw new Error(`no Pulumi.yaml in ${path.resolve(root)} or the folders below it; pass --cwd <project or repository folder>`);
  const fallback = [...projects.keys()][0]!;
  const url = backendUrlOf(first);
  let names = url ? await readStacks(url) : undefined;
  if (!names) {
    const workspace = await LocalWorkspace.create({ workDir: first, pulumiCommand: await pulumiCommand() });
    names = (await workspace.listStacks({ all: true })).map((s) => s.name);
  }
  return names
    .map((name) => {
      const project = projectOf(name, fallback);
      return { stack: qualify(name, project), project, dir: projects.get(project) };
    })
    .sort((a, b) => a.stack.localeCompare(b.stack));
}

/** The engine's message without the Automation API's wrapping (command line, exit code, stdout). */
export function engineMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const stderr = /stderr:\s*([\s\S]*?)(?:\n\s*err\?:|$)/.exec(text)?.[1]?.trim();
  return (stderr || text).trim();
}

/** Checks one stack: its drift, or busy when its lock is held, or the error that stopped it. */
export async function checkOne(target: FleetStack, check: CheckStack, probe: LockProbe = noProbe): Promise<StackResult> {
  const started = performance.now();
  const base = { stack: target.stack, project: target.project, resources: 0, drift: [] };
  const seconds = () => (performance.now() - started) / 1000;
  if (!target.dir) {
    const message = `no project folder for project ${target.project}: no Pulumi.yaml with name: ${target.project} in --cwd or the folders below it`;
    return { ...base, status: "error", message, seconds: 0 };
  }
  try {
    const holders = await probe(target);
    if (holders?.length) return { ...base, status: "busy", message: describeLocks(holders), seconds: seconds() };
    const report = await check(target);
    return {
      ...base,
      resources: report.resources,
      drift: report.drift,
      ...(report.ignored?.length ? { ignored: report.ignored } : {}),
      status: report.drift.length ? "drift" : "clean",
      seconds: seconds(),
    };
  } catch (error) {
    const message = engineMessage(error);
    return { ...base, status: LOCKED.test(message) ? "busy" : "error", message, seconds: seconds() };
  }
}

/** Checks `targets`, `parallel` at a time, saying on `progress` which stack starts and how many are done. */
export async function checkFleet(
  targets: FleetStack[],
  parallel: number,
  check: CheckStack,
  progress: (line: string) => void = () => undefined,
  probe: LockProbe = noProbe,
): Promise<FleetReport> {
  let done = 0;
  const results = await mapBounded(targets, parallel, async (target) => {
    progress(`checking ${target.stack}…`);
    const result = await checkOne(target, check, probe);
    done += 1;
    progress(`[${done}/${targets.length}] ${target.stack}: ${outcome(result)} (${result.seconds.toFixed(1)} s)`);
    return result;
  });
  return fleetReport(results);
}

/** The refresh preview of `drift.ts`, run in the stack's project folder. */
const checkWithEngine: CheckStack = (target) => findDrift({ cwd: target.dir!, stack: target.stack, json: false });

/** The lock entries in the backend the stack's project uses. */
const backendLocks: LockProbe = async (target) => {
  const url = target.dir ? backendUrlOf(target.dir) : undefined;
  return url ? readLocks(url, target.stack) : undefined;
};

export async function runFleetDrift(
  options: FleetOptions,
  out: (text: string) => void = console.log,
  progress: (line: string) => void = (line) => console.error(`[drift] ${line}`),
  check: CheckStack = checkWithEngine,
  probe: LockProbe = backendLocks,
): Promise<number> {
  try {
    if (!Number.isInteger(options.parallel) || options.parallel < 1)
      throw new Error(`--parallel must be a whole number of at least 1, not ${options.parallel}`);
    const targets = selectStacks(await listFleet(options.cwd), options.stacks);
    if (targets.length === 0) throw new Error("the backend holds no stack");
    progress(`${targets.length} stack(s), ${Math.min(options.parallel, targets.length)} at a time`);
    const report = await checkFleet(targets, options.parallel, check, progress, probe);
    if (options.junit) fs.writeFileSync(options.junit, junitXml(report));
    out(options.json ? JSON.stringify(report, null, 2) : formatFleetReport(report));
    return fleetExitCode(report);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    out(options.json ? JSON.stringify({ error: message }) : `pulumi-compute drift: ${message}`);
    return EXIT.error;
  }
}
