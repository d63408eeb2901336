/**
 * Recovery of a stack after a run that was killed mid-way (`pulumi-compute recover`, and
 * `recover(stack)` for Automation API programs): brings a stack back after a run that was killed mid-way. The engine
 * keeps what was in flight in the stack's state as pending operations (`pulumi stack export`,
 * `deployment.pending_operations`: the resource's URN, type and inputs, and `creating`,
 * `updating` or `deleting`). A pending create of this package's types is decided by the natural
 * key of its recorded inputs, with the lookup the provider's exactly-once create runs
 * (`resolvePendingCreate`): the one object found is written into state with its id and read by a
 * `pulumi refresh` (see `settleCreates` for why not `--import-pending-creates`), a create that
 * never landed is cleared, and anything that cannot be told (several matches, a failing lookup) is
 * refused and named. Pending updates and deletes are settled by the same refresh. A diy
 * backend's lock (a file under `file://`, a row under `postgres://`) left by a process that is
 * gone is removed first.
 */
import { spawn } from "node:child_process";
import * as os from "node:os";
import * as readline from "node:readline/promises";
import type { LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import type { ProviderContext } from "../engine/context";
import { servingContext } from "../serve/serving-context";
import { specForType } from "../serve/spec-lookup";
import { resolvePendingCreate } from "../engine/natural-key";
import { PROVIDER_KEY } from "../classes/shim";
import { readLockEntries, removeLockEntries, type LockEntry } from "../stores/backend-store";

/** How `recover` asks and reports. */
export interface RecoverOptions {
  /** Apply without asking (the plan is printed either way). */
  yes?: boolean;
  /** Asked when `yes` is not set; default a question on the terminal. */
  confirm?: (question: string) => Promise<boolean>;
  /** Each line of the plan and of what was done; default nothing (the report is returned). */
  out?: (line: string) => void;
}

/** One line of the report: a resource and what became of its pending operation. */
export interface RecoverLine {
  /** The resource's name in the program. */
  resource: string;
  type: string;
  urn: string;
  /** The engine's pending operation: `creating`, `updating`, `deleting` (or `importing`). */
  operation: string;
  /** `adopted` (written into state with its id), `cleared` (never landed), `refused`, `settled` (by the refresh), `kept` (not this package's). */
  action: "adopted" | "cleared" | "refused" | "settled" | "kept";
  id?: string;
  reason: string;
}

/** An entry of a diy backend's lock and what recover did with it. */
export interface LockReport {
  /** The lock's file (`file://`), or its row's key (`postgres://`). */
  key: string;
  holder: string;
  action: "removed" | "refused";
  reason: string;
}

/** What `recover` found and did. */
export interface RecoverReport {
  stack: string;
  locks: LockReport[];
  resources: RecoverLine[];
  /** Whether the plan was carried out (false: nothing to do, a refusal that blocks it, or declined). */
  applied: boolean;
}

/** A pending operation as `pulumi stack export` records it. */
export interface PendingOperation {
  type: string;
  resource: { urn: string; type: string; inputs?: Record<string, unknown>; id?: string };
}

/** A resource of the exported state (the fields recover reads). */
export interface StateResource {
  type: string;
  id?: string;
}

// ---------------------------------------------------------------------------------------------
// the lock

/** Whether process `pid` runs on this machine. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"; // it exists, owned by someone else
  }
}

/**
 * What to do with a lock: its holder is gone when it ran on this host and its pid no longer
 * exists; a holder on another host, or one still running, is refused (it may be working).
 */
export function judgeLock(entry: LockEntry, hostname = os.hostname(), isAlive: (pid: number) => boolean = alive): LockReport {
  const { key, holder: content } = entry;
  if (entry.unreadable || content.pid === undefined || content.hostname === undefined)
    return { key, holder: "unknown", action: "refused", reason: `the lock entry cannot be read (${entry.unreadable ?? "no pid or host"})` };
  const holder = `${content.username ?? "?"}@${content.hostname} (pid ${content.pid})${content.timestamp ? ` since ${content.timestamp}` : ""}`;
  if (content.hostname !== hostname) {
    return {
      key,
      holder,
      action: "refused",
      reason: `held by a process on another host (${content.hostname}); if it is gone, \`pulumi cancel\``,
    };
  }
  if (isAlive(content.pid))
    return { key, holder, action: "refused", reason: `process ${content.pid} is still running; wait for it to end` };
  return { key, holder, action: "removed", reason: `process ${content.pid} is gone` };
}

// ---------------------------------------------------------------------------------------------
// the plan

const nameOf = (urn: string): string => urn.split("::").pop()!;

/**
 * The plan: one line per pending operation. Pending creates of this package's types are looked
 * up by their natural key (reads only); everything else is left to the refresh.
 */
export async function planPending(
  pending: PendingOperation[],
  resources: StateResource[],
  context: () => Promise<ProviderContext>,
  signal: AbortSignal = AbortSignal.timeout(5 * 60_000),
): Promise<RecoverLine[]> {
  const lines: RecoverLine[] = [];
  for (const op of pending) {
    const { urn, type } = op.resource;
    const spec = specForType(type);
    const base = { resource: nameOf(urn), type: spec?.name ?? type, urn, operation: op.type };
    if (op.type !== "creating") {
      lines.push({ ...base, action: "settled", reason: `the refresh reads it and records what the API holds` });
      continue;
    }
    if (!spec) {
      lines.push({ ...base, action: "kept", reason: "not a pulumi-compute resource: left pending for `pulumi refresh`" });
      continue;
    }
    const { [PROVIDER_KEY]: _provider, ...inputs } = op.resource.inputs ?? {};
    // Objects the stack already manages are not this create's, whatever their key.
    const managed = new Set(resources.filter((r) => r.type === type && r.id).map((r) => r.id!));
    const decided = await resolvePendingCreate(spec, await context(), inputs, managed, signal);
    lines.push({
      ...base,
      type: spec.name,
      action: decided.outcome,
      ...("id" in decided ? { id: decided.id } : {}),
      reason: decided.reason,
    });
  }
  return lines;
}

/** One line of the report as text. */
export function formatLine(line: RecoverLine): string {
  const what = `${line.type} ${line.resource}`;
  switch (line.action) {
    case "adopted":
      return `${what}: adopted id ${line.id} (${line.reason})`;
    case "cleared":
      return `${what}: cleared (${line.reason})`;
    case "refused":
      return `${what}: refused: ${line.reason}`;
    case "settled":
      return `${what}: interrupted while ${line.operation}; ${line.reason}`;
    case "kept":
      return `${what}: ${line.reason}`;
  }
}

/** A lock's line of the report: to remove, removed, or refused naming its holder. */
export function formatLock(lock: LockReport, applied: boolean): string {
  if (lock.action === "removed") return `lock ${lock.key}: held by ${lock.holder}; ${lock.reason}: ${applied ? "removed" : "to remove"}`;
  return `lock ${lock.key}: refused, held by ${lock.holder}: ${lock.reason}`;
}

/** A stack's deployment as `pulumi stack export` gives it (the parts recover reads and edits). */
export interface ExportedDeployment {
  resources?: Array<StateResource & Record<string, unknown>>;
  pending_operations?: PendingOperation[];
  [key: string]: unknown;
}

/**
 * The deployment with the plan's pending creates settled: each adopted one becomes a resource
 * with the found id (its outputs, until the refresh reads the object, are its recorded inputs,
 * which carry the provider text the refresh needs; a replacement's takes the place of the
 * resource it replaces, which stays marked for deletion unless its object was deleted first),
 * each cleared one is dropped; refused and
 * foreign ones stay pending, and so do updates and deletes (the refresh settles those). The
 * engine's `--import-pending-creates` was meant to make this edit, but in the engine this package
 * runs (3.259) it only marks the operations `importing`, which no step reads, and the refresh
 * then drops them: the objects would be forgotten.
 */
export function settleCreates(deployment: ExportedDeployment, lines: RecoverLine[]): ExportedDeployment {
  const byUrn = new Map(lines.filter((l) => l.operation === "creating").map((l) => [l.urn, l]));
  const adopted: Array<StateResource & Record<string, unknown>> = [];
  const pending: PendingOperation[] = [];
  for (const op of deployment.pending_operations ?? []) {
    const line = op.type === "creating" ? byUrn.get(op.resource.urn) : undefined;
    if (line?.action === "adopted") adopted.push({ ...op.resource, id: line.id!, outputs: { ...op.resource.inputs } });
    else if (line?.action !== "cleared") pending.push(op);
  }
  // A replacement's create: the resource it replaces is still in state under the same URN, before
  // the resources that depend on it. The replacement takes its place: after it, marked for
  // deletion as the engine marks it once a replacement is made (the next `up` deletes it), or
  // instead of it when a delete-before-replace had deleted its object (`pendingReplacement`).
  const replacing = new Map(adopted.map((r) => [r.urn, r]));
  const resources = (deployment.resources ?? []).flatMap((r) => {
    const replacement = typeof r.urn === "string" && !r.delete ? replacing.get(r.urn) : undefined;
    if (!replacement) return [r];
    replacing.delete(r.urn as string);
    return r.pendingReplacement ? [replacement] : [{ ...r, delete: true }, replacement];
  });
  return { ...deployment, resources: [...resources, ...replacing.values()], pending_operations: pending };
}

// ---------------------------------------------------------------------------------------------
// carrying it out

/** The stack's credentials (`compute:token`, `compute:apiUrl`) from its config, else the environment. */
async function contextFor(stack: Stack): Promise<ProviderContext> {
  const config = await stack.getAllConfig();
  // stdout carries the report
  return servingContext(
    (key) => config[key]?.value,
    (line) => process.stderr.write(`${line}\n`),
  );
}

/** What an interrupted run may have left: the stack's diy locks (judged), its pending operations, its resources. */
async function inspect(
  stack: Stack,
): Promise<{ backend: string; locks: LockReport[]; pending: PendingOperation[]; resources: StateResource[] }> {
  const workspace = stack.workspace as LocalWorkspace;
  const backend = (await workspace.whoAmI()).url ?? "";
  const project = (await workspace.projectSettings()).name;
  // Project-scoped stacks lock `organization/<project>/<stack>`; legacy ones `<stack>`.
  const entries = (await readLockEntries(backend, [`organization/${project}/${stack.name}`, stack.name])) ?? [];
  const state = (await stack.exportStack()).deployment as { resources?: StateResource[]; pending_operations?: PendingOperation[] };
  return {
    backend,
    locks: entries.map((entry) => judgeLock(entry)),
    pending: state.pending_operations ?? [],
    resources: state.resources ?? [],
  };
}

/**
 * Recovers `stack` (the Automation API's): removes a lock left by a dead process, decides each
 * pending create by its natural key, and runs one `pulumi refresh` that adopts the found objects,
 * settles pending updates and deletes, and clears the creates that never landed. Refused
 * resources stay pending and are named; nothing is guessed.
 */
export async function recover(stack: Stack, options: RecoverOptions = {}): Promise<RecoverReport> {
  const out = options.out ?? (() => undefined);
  const { backend, locks, pending, resources } = await inspect(stack);
  const report: RecoverReport = { stack: stack.name, locks, resources: [], applied: false };
  if (pending.length === 0 && locks.length === 0) {
    out(`Nothing to recover: stack ${stack.name} has no pending operations and no lock.`);
    return report;
  }

  let ctx: ProviderContext | undefined;
  try {
    report.resources = await planPending(pending, resources, async () => (ctx ??= await contextFor(stack)));
  } finally {
    await ctx?.client().close();
  }

  out(`Stack ${stack.name}: ${pending.length} pending operation(s) from an interrupted run.`);
  for (const lock of locks) out(formatLock(lock, false));
  for (const line of report.resources) out(formatLine(line));
  if (locks.some((l) => l.action === "refused")) {
    out("Not recovering while the stack is locked by a process that may still be running.");
    return report;
  }
  if (!options.yes) {
    const ask = options.confirm ?? askOnTerminal;
    if (!(await ask("Carry this out? (yes/no) "))) {
      out("Nothing changed.");
      return report;
    }
  }

  await removeLockEntries(
    backend,
    locks.map((lock) => lock.key),
  );
  for (const lock of locks) out(formatLock(lock, true));
  if (pending.length > 0) {
    if (report.resources.some((l) => l.action === "adopted" || l.action === "cleared")) {
      const state = await stack.exportStack();
      await stack.importStack({ ...state, deployment: settleCreates(state.deployment as ExportedDeployment, report.resources) });
    }
    // Reads every resource: the adopted objects' outputs, and what the interrupted updates and deletes left.
    await runPulumi(stack.workspace as LocalWorkspace, ["refresh", "--yes", "--skip-preview", "--non-interactive", "--stack", stack.name]);
  }
  report.applied = true;
  const refused = report.resources.filter((l) => l.action === "refused").length;
  out(
    refused > 0
      ? `Recovered all but ${refused} resource(s), which stay pending: resolve them as said above, then run recover again.`
      : "Recovered: run `pulumi up` to finish what the interrupted run started.",
  );
  return report;
}

/**
 * What an interrupted run left on `stack` (pending operations, a diy lock), as one message naming
 * `recover`; undefined when nothing. Reads state and the lock entries only.
 */
export async function interruptedRun(stack: Stack): Promise<string | undefined> {
  const { locks, pending } = await inspect(stack);
  if (pending.length === 0 && locks.length === 0) return undefined;
  const found = [
    ...(pending.length > 0
      ? [`${pending.length} pending operation(s) (${pending.map((op) => `${nameOf(op.resource.urn)} ${op.type}`).join(", ")})`]
      : []),
    ...locks.map((l) => `a lock held by ${l.holder}${l.action === "removed" ? ", which is gone" : ""}`),
  ];
  return `stack ${stack.name} has ${found.join(" and ")} from an interrupted run: run \`npx pulumi-compute recover\` first`;
}

/** Runs the workspace's `pulumi` in its folder; fails with the end of its output when it fails. */
function runPulumi(workspace: LocalWorkspace, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(workspace.pulumiCommand.command, args, {
      cwd: workspace.workDir,
      env: { ...process.env, ...workspace.envVars },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve();
      else reject(new Error(`pulumi ${args[0]} failed (exit ${code}):\n${output.trimEnd().slice(-3000)}`));
    });
  });
}

async function askOnTerminal(question: string): Promise<boolean> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}
