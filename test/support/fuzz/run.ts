/**
 * Runs a step list through the real engine: one emulator (reset before each run, so a seed and a
 * step list reproduce), one stack per door (made once, its state emptied before each run:
 * `stackOf`) whose program declares the model's current resources through that door (`doors.ts`:
 * the TypeScript classes, or Pulumi YAML through the provider plugin), and the invariants after
 * every step, each reported with the step that broke it.
 *
 * Invariants:
 * - `operation succeeds`: every preview, up and refresh succeeds at once, faults or not;
 * - `preview sends no write`: a preview's requests are reads only;
 * - `preview equals up`: the (resource, op) steps of the preview before an `up` (`refresh: true`
 *   before `upRefresh`) are exactly those the `up` takes;
 * - `no diff after up`: the preview after a successful `up` has only `same`, but for an update
 *   that restores a field changed by hand which that `up`'s update of another field read back;
 * - `declared exactly once`: after an `up`, every declared resource has an object of its kind in
 *   the account, under its parent's object, with the program's values (except ignored fields and
 *   fields changed by hand that no refresh and `up` have restored yet);
 * - `nothing undeclared`: after an `up`, no object of a modelled kind exists that the program does
 *   not declare (nothing twice, nothing lost);
 * - `alias keeps the object`: a resource renamed with its alias keeps its object id (unless its
 *   inputs replaced it in that `up`);
 * - `state matches the account`: after a refresh, the state holds every modelled field as the
 *   account does, and nothing of an object deleted by hand; after an `up`, every field no hand
 *   change touched since a refresh read it;
 * - `retained object kept`: an object whose resource left the state with `retainOnDelete` is still
 *   in the account after the operation (unless its parent's delete took it along, or it was
 *   deleted by hand); the run then deletes it by hand, as a team takes it over elsewhere;
 * - `drift reports the hand changes`: `pulumi-compute drift --json` reports exactly the modelled
 *   fields in which state and account differ and the objects the account lost, each a change the
 *   model made by hand;
 * - `destroy leaves nothing`: after a `destroy`, no object of a modelled kind in the account and
 *   no resource in state;
 * - `state move writes nothing`, `state move moves exactly them`, `state move keeps the plan`,
 *   `held by one stack` (`stateMove`, `moveAndBack`): a `pulumi state move` sends no request that
 *   writes and moves exactly the resources named, with their ids; the second stack then plans for
 *   them what the first planned; after the second stack's `up`, every object of the account is held by
 *   exactly one resource of the two stacks; back home they keep their objects;
 * - `a killed run leaves no process`, `recovered as the product says`, `recover writes nothing`
 *   (`kill`): an `up` killed with SIGKILL leaves none of its processes; `pulumi-compute drift` then
 *   names the interrupted run and `npx pulumi-compute recover` exactly when the run was
 *   interrupted, and `recover --yes` succeeds, sends no write and says to run `pulumi up`; that
 *   `up` is checked as any other;
 * - `no token in state`: the state file never holds the API token, nor an instance's root password in the clear;
 * - `request budget`: an operation's requests stay within a loose budget per resource.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import type { FaultKind } from "../../../emulator/core/faults";
import { ComputeClient } from "../../../sdk/client";
import { ApiError } from "../../../sdk/core/errors";
import { packageRoot } from "../../../provider/launch/plugins";
import { createTestStack, type TestStack } from "../engine";
import { alive, runProcess } from "../process";
import { killWhen, runningPulumi } from "../killed-run";
import { heldRequestsDone } from "../requests";
import { classesProgram, yamlProgram, type Door } from "./doors";
import { KINDS, KIND_BY_NAME, ROOT_PASS, type CloudObject, type KindModel } from "./kinds";
import {
  afterOperation,
  applyEdit,
  emptyModel,
  findDecl,
  isOperation,
  isProtected,
  movable,
  type Decl,
  type Model,
  type Operation,
  type Step,
} from "./steps";

/**
 * The emulator and a client of its account, shared by every run of a process (reset before each),
 * and the stacks of the runs (`stackOf`).
 */
export interface FuzzWorld {
  emulator: RunningEmulator;
  client: ComputeClient;
  /** The stacks runs have made, by door and role, each with its state file as it was made. */
  stacks: Map<string, PooledStack>;
  close(): Promise<void>;
}

/** A stack a run makes once and later runs take again, from an empty state (`stackOf`). */
interface PooledStack {
  stack: TestStack;
  /** The model its program declares (the classes' door reads it at each operation). */
  program: { model: Model };
  /** The state file's text as `pulumi stack init` left it (undefined: none yet). */
  initial?: string;
}

export async function startFuzzWorld(): Promise<FuzzWorld> {
  const emulator = await startEmulator({ port: 0 });
  const client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  const stacks = new Map<string, PooledStack>();
  return {
    emulator,
    client,
    stacks,
    close: async () => {
      for (const pooled of stacks.values()) pooled.stack.cleanup();
      await client.close();
      await emulator.close();
    },
  };
}

/**
 * The stack of a door's run (`role` "main"), or of its second stack (`stateMove`), declaring
 * `model` from now on, with an empty state: made once per world (two `pulumi` starts and a clock
 * service), then taken again by each run with its state file put back as it was made, since a run
 * is a fresh stack on a reset emulator. The second stack is of the main one's project and backend.
 */
async function stackOf(world: FuzzWorld, door: Door, role: "main" | "second", model: Model): Promise<TestStack> {
  const key = `${door} ${role}`;
  let pooled = world.stacks.get(key);
  if (!pooled) {
    const program = { model };
    const stack = await createTestStack({
      name: `fuzz-${door}`,
      // The main stack is made first: a run's second stack is made at its first move.
      ...(role === "second" ? { stackName: "second", besides: world.stacks.get(`${door} main`)!.stack } : {}),
      apiUrl: world.emulator.url,
      token: world.emulator.token,
      ...(door === "plugin" ? { runtime: "yaml" as const } : { program: () => classesProgram(program.model)() }),
      ephemeral: { checkpoints: false, clock: world.emulator.emulator.clock },
    });
    pooled = { stack, program, initial: fs.existsSync(stack.statePath) ? stack.stateText() : undefined };
    world.stacks.set(key, pooled);
  }
  pooled.program.model = model;
  if (pooled.initial === undefined) fs.rmSync(pooled.stack.statePath, { force: true });
  else fs.writeFileSync(pooled.stack.statePath, pooled.initial);
  return pooled.stack;
}

export interface Violation {
  invariant: string;
  /** The index of the step that broke it. */
  step: number;
  message: string;
}

export interface RunReport {
  steps: number;
  /** Engine operations run (the previews around each `up` included). */
  operations: number;
  /** Faults the emulator fired. */
  faults: number;
  /** Invariant checks made. */
  checks: number;
  /** Objects found kept in the account after their resource left the state with `retainOnDelete`. */
  retained: number;
  /** Refusals whose message the run followed (an `up` of a change to an object deleted by hand, then `up --refresh`). */
  advised: number;
  /** Resources moved to the second stack and back (`stateMove`). */
  moved: number;
  /** `up`s killed before they ended (`kill`), each then recovered as the product says. */
  kills: number;
  /** `pulumi-compute recover` runs after them, as `pulumi-compute drift` said. */
  recoveries: number;
  /** Requests of each operation, at most. */
  mostRequests: number;
  ms: number;
  violation?: Violation;
}

/** Each fault kind's rate, so that about `rate` of the requests fail. */
const FAULT_KINDS: FaultKind[] = ["429", "500", "502", "503", "reset", "reset-after"];
/** Requests an operation may make: a fixed part and a part per resource (each with a lookup, a create or an update, a read). */
const budget = (resources: number, faulted: boolean) => (20 + 12 * resources) * (faulted ? 2 : 1);

/** How long the emulator holds each write of a killed `up` (`kill`): the last one seen is in flight when the kill comes. */
const KILL_HOLD_MS = 1_000;

/** The id Pulumi holds for an object of the account. */
const idOf = (o: CloudObject): string => o.stateId ?? String(o.id);

class Broken extends Error {
  constructor(
    readonly invariant: string,
    message: string,
  ) {
    super(message);
  }
}

/** The (resource, op) steps of an operation's events, sorted, without `same` and the engine's own resources. */
function opsOf(events: EngineEvent[]): string[] {
  return events
    .flatMap((e) => {
      const meta = e.resourcePreEvent?.metadata;
      if (!meta || meta.type.startsWith("pulumi:") || meta.op === "same") return [];
      return [`${meta.urn.split("::").pop()} ${meta.op}`];
    })
    .sort();
}

export interface RunOptions {
  /** The door the program goes through (default: the classes). */
  door?: Door;
  log?: (line: string) => void;
  /** Log every step with the checks made so far. */
  trace?: boolean;
  /**
   * Called after each step that broke nothing: what the world does behind the model's back. The
   * fuzzer's own test makes an object there that no program declares, to see an invariant fire.
   */
  afterStep?: (step: Step, index: number) => Promise<void>;
}

/** Runs `steps` on a fresh stack against a reset emulator; stops at the first violation. */
export async function runSteps(world: FuzzWorld, steps: readonly Step[], options: RunOptions = {}): Promise<RunReport> {
  const { emulator, client } = world;
  const control = emulator.control;
  control.reset({ seed: 1 });
  const model = emptyModel();
  const started = Date.now();
  const report: RunReport = {
    steps: 0,
    operations: 0,
    faults: 0,
    checks: 0,
    retained: 0,
    advised: 0,
    moved: 0,
    kills: 0,
    recoveries: 0,
    mostRequests: 0,
    ms: 0,
  };
  const door = options.door ?? "classes";
  const stack = await stackOf(world, door, "main", model);
  /**
   * The second stack of the project (`stateMove`), made at the first move, and its program: the
   * resources moved to it (`away`), through the run's door.
   */
  const away = emptyModel();
  let second: TestStack | undefined;
  /** The YAML door's program of `target`, written before each operation from its model as it is then. */
  const writeProgram = (target: TestStack) => {
    if (door !== "plugin") return;
    const urnOf = (kind: string, name: string) => `urn:pulumi:${target.stack.name}::${target.project}::compute:index:${kind}::${name}`;
    fs.writeFileSync(path.join(target.workDir, "Main.yaml"), yamlProgram(target === stack ? model : away, urnOf));
  };
  /** The object id of each resource of the state (of `target`), by name. */
  const ids = (target: TestStack = stack): Map<string, string> => {
    try {
      return new Map(target.resources().flatMap((r) => (r.type.startsWith("pulumi:") || !r.id ? [] : [[r.urn.split("::").pop()!, r.id]])));
    } catch {
      return new Map(); // no state file before the first operation
    }
  };
  const check = (invariant: string, ok: boolean, message: () => string) => {
    report.checks++;
    if (!ok) throw new Broken(invariant, message());
  };
  /** What the world made for the program (`KindModel.needs`), by key. */
  const made = new Set<string>();
  /** State ids of objects deleted by hand (a retained one of them is not expected in the account). */
  const deletedByHand = new Set<string>();
  const writesSinceClear = () => control.listRequests().filter((r) => r.method !== "GET");

  async function operate(
    op: Operation | "preview",
    run: (onEvent: (e: EngineEvent) => void) => Promise<unknown>,
    target: TestStack = stack,
  ): Promise<string[]> {
    const events: EngineEvent[] = [];
    report.operations++;
    writeProgram(target);
    try {
      await run((e) => events.push(e));
    } catch (error) {
      // The command line first, the engine's diagnostics last: progress lines between them go.
      const lines = (error as Error).message.split("\n").filter((line) => !/^ +[~+-] |^@ |^\s*$/.test(line));
      throw new Broken("operation succeeds", `${op} failed: ${[...lines.slice(0, 4), ...lines.slice(4).slice(-16)].join("\n")}`);
    }
    return opsOf(events);
  }

  async function preview(refresh: boolean, target: TestStack = stack): Promise<string[]> {
    control.clearRequests();
    const ops = await operate("preview", (onEvent) => target.stack.preview({ onEvent, refresh }), target);
    const writes = writesSinceClear();
    check("preview sends no write", writes.length === 0, () => `preview sent ${writes.map((w) => `${w.method} ${w.path}`).join(", ")}`);
    return ops;
  }

  /** Runs one engine operation under the model's faults; counts faults and checks the budget. */
  async function faulted(op: Operation, run: (onEvent: (e: EngineEvent) => void) => Promise<unknown>): Promise<string[]> {
    const rate = model.faultRate;
    if (rate > 0) {
      const each = 1 - Math.pow(1 - rate, 1 / FAULT_KINDS.length);
      for (const kind of FAULT_KINDS)
        control.addFault({ pathPattern: "/v4/*", kind, rate: each, ...(kind === "429" ? { retryAfterSeconds: 0 } : {}) });
    }
    control.clearRequests();
    const before = model.decls.length;
    try {
      return await operate(op, run);
    } finally {
      report.faults += control.listFaults().reduce((n, f) => n + f.fired, 0);
      control.clearFaults();
      const requests = control.listRequests().length;
      report.mostRequests = Math.max(report.mostRequests, requests);
      const allowed = budget(Math.max(before, ids().size, 1), rate > 0);
      check("request budget", requests <= allowed, () => `${op} made ${requests} requests for ${before} resources (budget ${allowed})`);
    }
  }

  /** Every object of the modelled kinds in the account, by kind (children listed under each parent object). */
  async function cloud(): Promise<Map<string, CloudObject[]>> {
    const found = new Map<string, CloudObject[]>();
    for (const kind of KINDS) {
      if (!kind.parent) found.set(kind.kind, await kind.list(client));
      else {
        const lists = await Promise.all((found.get(kind.parent.kind) ?? []).map((p) => kind.list(client, p.id)));
        found.set(kind.kind, lists.flat());
      }
    }
    return found;
  }

  async function checkCloud(upOps: string[]): Promise<void> {
    const stateIds = ids();
    const objects = await cloud();
    for (const kind of KINDS) {
      const declared = model.decls.filter((d) => d.kind === kind.kind);
      const found = objects.get(kind.kind) ?? [];
      for (const decl of declared) {
        const id = stateIds.get(decl.name);
        // Deleted by hand and not created again yet (no `up` saw it gone): nothing to find.
        if (decl.gone) continue;
        const object = found.filter((o) => idOf(o) === id);
        check(
          "declared exactly once",
          object.length === 1,
          () => `${kind.kind} "${decl.name}" (id ${id ?? "none in state"}) has ${object.length} objects in the account`,
        );
        const o = object[0]!;
        if (decl.parent !== undefined) {
          const parentId = stateIds.get(decl.parent);
          check(
            "declared exactly once",
            String(o.parentId) === parentId,
            () => `${kind.kind} "${decl.name}" is under ${o.parentId}, its parent "${decl.parent}" is ${parentId}`,
          );
        }
        for (const [field, value] of Object.entries(decl.props)) {
          if (decl.ignore.includes(field) || decl.hand.some((h) => h.field === field)) continue;
          check(
            "declared exactly once",
            o.values[field] === value,
            () =>
              `${kind.kind} "${decl.name}" ${field} is ${JSON.stringify(o.values[field])} in the account, the program says ${JSON.stringify(value)}`,
          );
        }
        if (decl.keepId !== undefined) {
          const replaced = upOps.some((op) => op.startsWith(`${decl.name} `) && /replace/.test(op));
          if (!replaced)
            check(
              "alias keeps the object",
              id === decl.keepId,
              () => `${kind.kind} renamed to "${decl.name}" had object ${decl.keepId}, now ${id}`,
            );
          decl.keepId = undefined;
        }
      }
      const declaredIds = new Set(declared.filter((d) => !d.gone).map((d) => stateIds.get(d.name)));
      const extra = found.filter((o) => !declaredIds.has(idOf(o)));
      check(
        "nothing undeclared",
        extra.length === 0,
        () => `${kind.kind} objects the program does not declare: ${extra.map((o) => `${idOf(o)} ${JSON.stringify(o.values)}`).join(", ")}`,
      );
    }
  }

  /**
   * The state holds what the account holds: after a refresh, every modelled field of every
   * deployed resource, and nothing of an object deleted by hand; after an `up`, every field no
   * hand change touched since a refresh read it.
   */
  async function checkState(op: Operation): Promise<void> {
    const outputs = new Map(stack.resources().map((r) => [r.urn.split("::").pop()!, r.outputs ?? {}]));
    const stateIds = ids();
    const objects = await cloud();
    const refreshed = op === "refresh" || op === "upRefresh";
    for (const decl of model.decls) {
      const recorded = outputs.get(decl.name);
      if (decl.gone) {
        if (refreshed)
          check("state matches the account", !recorded, () => `"${decl.name}", deleted by hand, is still in state after ${op}`);
        continue;
      }
      const object = (objects.get(decl.kind) ?? []).find((o) => idOf(o) === stateIds.get(decl.name));
      if (!recorded || !object) continue; // not deployed yet (a refresh creates nothing)
      for (const [field, value] of Object.entries(object.values)) {
        if (!refreshed && decl.hand.some((h) => h.field === field)) continue;
        check(
          "state matches the account",
          recorded[field] === value,
          () =>
            `${decl.kind} "${decl.name}" ${field} is ${JSON.stringify(recorded[field])} in state after ${op}, ${JSON.stringify(value)} in the account`,
        );
      }
    }
  }

  /** The modelled kind of a state resource (`compute:index:Vpc`), if any. */
  const kindOfType = (type: string) => KIND_BY_NAME.get(type.split(":").pop()!);

  /** The objects the state holds before an operation, each with whether a delete of it would retain it (by the state or the program). */
  function heldObjects(): Array<{ name: string; kind: KindModel; object: CloudObject; retained: boolean; byState: boolean }> {
    if (!fs.existsSync(stack.statePath)) return [];
    const retaining = new Set(model.decls.filter((d) => d.retain).flatMap((d) => [d.name, ...d.aliases.map((a) => a.name)]));
    return stack.resources().flatMap((r) => {
      const kind = kindOfType(r.type);
      if (!kind || !r.id) return [];
      const name = r.urn.split("::").pop()!;
      const parentId = kind.parent ? Number(r.outputs?.[kind.parent.input]) : undefined;
      const byState = !!r.retainOnDelete;
      return [
        {
          name,
          kind,
          object: { id: Number(r.id), stateId: r.id, parentId, values: {} },
          retained: byState || retaining.has(name),
          byState,
        },
      ];
    });
  }

  /**
   * After an operation: an object whose resource left the state with `retainOnDelete` (in state)
   * is still in the account, unless its parent's delete took it along or it was deleted by hand;
   * then the team takes it away by hand, as it would take it over elsewhere.
   */
  async function settleRetained(held: ReturnType<typeof heldObjects>): Promise<void> {
    const kept = new Set(ids().values());
    const leaving = held.filter((h) => h.retained && !kept.has(h.object.stateId!) && !deletedByHand.has(h.object.stateId!));
    if (!leaving.length) return;
    const objects = await cloud();
    for (const h of leaving) {
      const alive = (objects.get(h.kind.kind) ?? []).some((o) => idOf(o) === h.object.stateId);
      const parentAlive = !h.kind.parent || (objects.get(h.kind.parent.kind) ?? []).some((p) => p.id === h.object.parentId);
      if (h.byState && parentAlive)
        check(
          "retained object kept",
          alive,
          () => `${h.kind.kind} "${h.name}" (${h.object.stateId}) had retainOnDelete but left the account`,
        );
      if (!alive) continue;
      report.retained++;
      await h.kind.remove(client, h.object);
    }
  }

  /**
   * `pulumi-compute drift --json`: it must report exactly the managed fields whose value in the
   * account differs from the state's (read here with the sdk client), and the objects the state
   * holds that the account lost; and each is a change the model made by hand.
   */
  async function drift(): Promise<void> {
    report.operations++;
    const result = await productCommand(["drift", "--json"]);
    check("operation succeeds", result.code === 0 || result.code === 2, () => `drift exited ${result.code}: ${result.out.slice(-1500)}`);
    const parsed = JSON.parse(result.stdout) as {
      drift: Array<{ resource: string; field: string }>;
      ignored?: Array<{ resource: string; field: string }>;
    };
    const reported = [...parsed.drift, ...(parsed.ignored ?? [])].map((d) => `${d.resource} ${d.field}`).sort();
    const differing: string[] = [];
    if (fs.existsSync(stack.statePath)) {
      const objects = await cloud();
      for (const r of stack.resources()) {
        const kind = kindOfType(r.type);
        if (!kind || !r.id) continue;
        const name = r.urn.split("::").pop()!;
        const object = (objects.get(kind.kind) ?? []).find((o) => idOf(o) === r.id);
        if (!object) differing.push(`${name} (the object)`);
        else
          for (const [field, value] of Object.entries(object.values)) if (r.outputs?.[field] !== value) differing.push(`${name} ${field}`);
      }
    }
    differing.sort();
    check(
      "drift reports the hand changes",
      JSON.stringify(reported) === JSON.stringify(differing),
      () => `drift reported [${reported.join(", ")}]; state and account differ in [${differing.join(", ")}]`,
    );
    const unknown = reported.filter((entry) => {
      const [name, ...rest] = entry.split(" ");
      const field = rest.join(" ");
      const decl = findDecl(model, name!);
      if (!decl) return false; // removed from the program since: its hand changes left the model with it
      // A replacement the next up makes drops the old object's hand changes from the model, not from state.
      if (decl.pendingReplace) return false;
      return field === "(the object)" ? !decl.gone : !decl.hand.some((h) => h.field === field);
    });
    check(
      "drift reports the hand changes",
      unknown.length === 0,
      () => `drift reported [${unknown.join(", ")}], which no hand change made`,
    );
  }

  /**
   * The resource an `up` was refused for because its object was deleted by hand and the program
   * changed it since (a gone object whose deployed inputs differ from the program's); undefined when
   * the refusal is not that one, or its message does not name the resource and `pulumi up --refresh`.
   */
  function goneRefusal(message: string): string | undefined {
    const outputs = new Map(stack.resources().map((r) => [r.urn.split("::").pop()!, r.outputs ?? {}]));
    const changedGone = model.decls.filter((d) => {
      if (d.gone !== "unseen") return false;
      const recorded = [d.name, ...d.aliases.map((a) => a.name)].map((n) => outputs.get(n)).find((o) => o !== undefined);
      return !!recorded && Object.entries(d.props).some(([field, value]) => !d.ignore.includes(field) && recorded[field] !== value);
    });
    return changedGone.find((d) => message.includes(`"${d.name}"`) && message.includes("pulumi up --refresh"))?.name;
  }

  async function operation(op: Operation): Promise<void> {
    if (op === "preview") {
      await preview(false);
    } else if (op === "drift") {
      await drift();
    } else if (op === "destroy") {
      // Pulumi refuses to destroy a protected resource: a team unprotects first (a no-op here).
      if (model.decls.some(isProtected)) return;
      const held = heldObjects();
      await faulted(op, (onEvent) => stack.stack.destroy({ onEvent }));
      afterOperation(model, op);
      await settleRetained(held);
      const left = [...(await cloud()).entries()].flatMap(([kind, objects]) => objects.map((o) => `${kind} ${idOf(o)}`));
      check("destroy leaves nothing", left.length === 0, () => `after destroy the account holds ${left.join(", ")}`);
      const kept = [...ids().keys()];
      check("destroy leaves nothing", kept.length === 0, () => `after destroy the state holds ${kept.join(", ")}`);
    } else if (op === "refresh") {
      await faulted(op, (onEvent) => stack.stack.refresh({ onEvent }));
      afterOperation(model, op);
      await checkState(op);
    } else {
      const refresh = op === "upRefresh";
      const planned = await preview(refresh);
      const held = heldObjects();
      let done: string[];
      try {
        done = await faulted(op, (onEvent) => stack.stack.up({ onEvent, refresh }));
      } catch (error) {
        // An `up` without refresh updates what the state holds: a change to an object deleted by
        // hand is refused (seed 17). The message must name the resource and say what to run; the
        // team runs it, and every invariant holds after it.
        const refused =
          !refresh && error instanceof Broken && error.invariant === "operation succeeds" ? goneRefusal(error.message) : undefined;
        if (!refused) throw error;
        report.advised++;
        await settleRetained(held);
        return operation("upRefresh");
      }
      await settleRetained(held);
      check(
        "preview equals up",
        JSON.stringify(planned) === JSON.stringify(done),
        () => `preview planned [${planned.join(", ")}], ${op} did [${done.join(", ")}]`,
      );
      afterOperation(model, op);
      // An update's answer is the whole object: it reads the fields changed by hand into state too,
      // and the next up restores them (seed 9).
      const updated = new Set(done.filter((o) => o.endsWith(" update")).map((o) => o.split(" ")[0]));
      // A replacement makes a new object with the program's values: one deleted by hand is back,
      // though no refresh saw it gone (seed 360: a subnet deleted by hand, then replaced with the VPC
      // an up without refresh replaced).
      const replaced = new Set(done.filter((o) => o.endsWith(" create-replacement")).map((o) => o.split(" ")[0]));
      for (const decl of model.decls) {
        decl.pendingReplace = false;
        if (updated.has(decl.name)) for (const h of decl.hand) h.seen = true;
        if (replaced.has(decl.name) && decl.gone) Object.assign(decl, { gone: undefined, hand: [] });
      }
      await checkCloud(done);
      await checkState(op);
      const after = await preview(false);
      const restoring = new Set(
        model.decls.filter((d) => d.hand.some((h) => h.seen && !d.ignore.includes(h.field))).map((d) => `${d.name} update`),
      );
      check(
        "no diff after up",
        after.every((o) => restoring.has(o)),
        () =>
          `the preview after ${op} plans [${after.join(", ")}]${restoring.size ? ` (restoring hand changes: ${[...restoring].join(", ")})` : ""}`,
      );
    }
    if (fs.existsSync(stack.statePath))
      check("no token in state", !stack.stateText().includes(emulator.token), () => "the state file holds the API token");
    if (fs.existsSync(stack.statePath))
      check(
        "no token in state",
        !stack.stateText().includes(ROOT_PASS),
        () => "the state file holds an instance's root password in the clear",
      );
  }

  /**
   * `pulumi state move` of `names` (as the state of `from` holds them) to `to`, as the command line
   * is given it: it writes nothing to the account, and moves exactly them, with their objects.
   */
  async function stateMove(from: TestStack, to: TestStack, names: ReadonlySet<string>): Promise<void> {
    const moving = from.resources().filter((r) => !r.type.startsWith("pulumi:") && names.has(r.urn.split("::").pop()!));
    control.clearRequests();
    report.operations++;
    const result = await from.cli([
      "state",
      "move",
      "--source",
      from.stack.name,
      "--dest",
      to.stack.name,
      "--yes",
      ...moving.map((r) => r.urn),
    ]);
    check("operation succeeds", result.code === 0, () => `pulumi state move exited ${result.code}: ${result.out.slice(-1500)}`);
    const writes = writesSinceClear();
    check(
      "state move writes nothing",
      writes.length === 0,
      () => `pulumi state move sent ${writes.map((w) => `${w.method} ${w.path}`).join(", ")}`,
    );
    const left = ids(from);
    const arrived = ids(to);
    for (const r of moving) {
      const name = r.urn.split("::").pop()!;
      check(
        "state move moves exactly them",
        !left.has(name) && arrived.get(name) === r.id,
        () =>
          `"${name}" (${r.id}) after pulumi state move: ${left.get(name) ?? "none"} in ${from.stack.name}, ${arrived.get(name) ?? "none"} in ${to.stack.name}`,
      );
    }
  }

  /**
   * A `stateMove` step: a top-level resource and its children (`movable`) moved with `pulumi state
   * move` to the project's second stack, whose program takes their code, and back, as a team
   * splits a stack and changes its mind. Each move writes nothing and moves exactly them; the
   * second stack then plans for them what the first planned before; an `up` of the second stack
   * converges them (its preview equal to it, empty after it), each with one object with the
   * program's values, and every object of the account is held by exactly one of the two stacks;
   * back home they keep those objects, and the first stack plans what it planned before for the
   * rest and what the second planned last for them. A no-op until an `up` deployed them under
   * their names, while a replacement waits for the next `up`, or while a resource the program
   * removed still reads the root's id (a team runs `up` first).
   */
  async function moveAndBack(name: string): Promise<void> {
    const decl = findDecl(model, name);
    const moving = decl && movable(model, decl);
    if (!moving || !fs.existsSync(stack.statePath)) return;
    const names = new Set(moving.map((d) => d.name));
    const held = stack.resources();
    const named = (n: string) => held.find((r) => !!r.id && !r.type.startsWith("pulumi:") && r.urn.split("::").pop() === n);
    if (moving.some((d) => !named(d.name) || d.pendingReplace)) return;
    const rootId = named(decl.name)!.id;
    const readsRoot = held.some((r) => {
      const parent = kindOfType(r.type)?.parent;
      return parent?.kind === decl.kind && !names.has(r.urn.split("::").pop()!) && String(r.outputs?.[parent.input]) === rootId;
    });
    if (readsRoot) return;
    const before = await preview(false);
    const only = (ops: string[], keep: boolean) => ops.filter((o) => names.has(o.split(" ")[0]!) === keep);
    second ??= await stackOf(world, door, "second", away);
    const to = second;
    const order = model.decls;
    await stateMove(stack, to, names);
    // Their code moves with them.
    model.decls = order.filter((d) => !names.has(d.name));
    away.decls = moving;
    let after: string[];
    try {
      // The first stack's plan for the rest, and for them nothing, follows from the state it no
      // longer holds them in and the program that no longer declares them: the preview back home checks it.
      const planned = await preview(false, to);
      check(
        "state move keeps the plan",
        JSON.stringify(planned) === JSON.stringify(only(before, true)),
        () => `before the move the plan was [${before.join(", ")}]; after it, [${planned.join(", ")}] in ${to.stack.name}`,
      );
      control.clearRequests();
      const done = await operate("up", (onEvent) => to.stack.up({ onEvent }), to);
      check(
        "preview equals up",
        JSON.stringify(planned) === JSON.stringify(done),
        () => `preview planned [${planned.join(", ")}], up of ${to.stack.name} did [${done.join(", ")}]`,
      );
      afterOperation(away, "up");
      const updated = new Set(done.filter((o) => o.endsWith(" update")).map((o) => o.split(" ")[0]));
      for (const d of moving) if (updated.has(d.name)) for (const h of d.hand) h.seen = true;
      await checkHeld(to, moving);
      after = await preview(false, to);
      const restoring = new Set(
        moving.filter((d) => d.hand.some((h) => h.seen && !d.ignore.includes(h.field))).map((d) => `${d.name} update`),
      );
      check(
        "no diff after up",
        after.every((o) => restoring.has(o)),
        () => `the preview after the up of ${to.stack.name} plans [${after.join(", ")}]`,
      );
      check(
        "no token in state",
        !to.stateText().includes(emulator.token) && !to.stateText().includes(ROOT_PASS),
        () => `${to.stack.name}'s state file holds the API token or a root password in the clear`,
      );
    } finally {
      model.decls = order;
      away.decls = [];
    }
    const there = ids(to);
    await stateMove(to, stack, names);
    check(
      "state move moves exactly them",
      ids(to).size === 0,
      () => `after moving back, ${to.stack.name} still holds ${[...ids(to).keys()].join(", ")}`,
    );
    const home = ids();
    for (const n of names)
      check(
        "alias keeps the object",
        home.get(n) === there.get(n),
        () => `"${n}" had object ${there.get(n)} in ${to.stack.name}, ${home.get(n)} back home`,
      );
    report.moved += names.size;
    const back = await preview(false);
    const expected = [...only(before, false), ...after].sort();
    check(
      "state move keeps the plan",
      JSON.stringify(back) === JSON.stringify(expected),
      () => `back home the plan is [${back.join(", ")}], expected [${expected.join(", ")}]`,
    );
  }

  /**
   * After an `up` of the second stack: each of `moving` has one object in the account, with the
   * program's values (but ignored fields and fields changed by hand not yet restored), and every
   * object of the account is held by exactly one of the two stacks (nothing lost, nothing twice).
   */
  async function checkHeld(to: TestStack, moving: Decl[]): Promise<void> {
    const objects = await cloud();
    const there = ids(to);
    for (const d of moving) {
      const found = (objects.get(d.kind) ?? []).filter((o) => idOf(o) === there.get(d.name));
      check(
        "declared exactly once",
        found.length === 1,
        () => `${d.kind} "${d.name}" (id ${there.get(d.name)}) has ${found.length} objects in the account`,
      );
      for (const [field, value] of Object.entries(d.props)) {
        if (d.ignore.includes(field) || d.hand.some((h) => h.field === field)) continue;
        check(
          "declared exactly once",
          found[0]!.values[field] === value,
          () =>
            `${d.kind} "${d.name}" ${field} is ${JSON.stringify(found[0]!.values[field])} in the account, the program says ${JSON.stringify(value)}`,
        );
      }
    }
    const holders = [...ids().values(), ...there.values()];
    for (const [kind, list] of objects)
      for (const o of list) {
        const held = holders.filter((id) => id === idOf(o)).length;
        check(
          "held by one stack",
          held === 1,
          () => `${kind} ${idOf(o)} ${JSON.stringify(o.values)} is held by ${held} resources of the two stacks`,
        );
      }
  }

  /** The object of a declared resource as the state knows it (undefined before it is deployed, or under another name). */
  const deployed = (name: string): CloudObject | undefined => {
    const decl = findDecl(model, name);
    const id = ids().get(name);
    if (!decl || decl.gone || id === undefined) return undefined;
    // The parent's id as the state records it on the child: a parent renamed since the last up is
    // under its old name in state (seed 31).
    const parent = KIND_BY_NAME.get(decl.kind)!.parent;
    const recorded = parent && stack.resources().find((r) => r.id === id && r.urn.split("::").pop() === name)?.outputs?.[parent.input];
    return { id: Number(id), stateId: id, parentId: parent ? Number(recorded) : undefined, values: {} };
  };

  async function edit(step: Step): Promise<void> {
    if (step.op === "hand" || step.op === "handDelete") {
      const object = deployed(step.name);
      if (!object) return; // not deployed: a no-op
      const decl = findDecl(model, step.name)!;
      const kind = KIND_BY_NAME.get(decl.kind)!;
      if (step.op === "hand") {
        await kind.hand.find((h) => h.field === step.field)!.apply(client, object, step.value);
        applyEdit(model, step);
        return;
      }
      // A delete by hand of an object whose children the model declares is a no-op (`applyEdit`);
      // so is one the API refuses (a VPC whose removed subnets no up has deleted yet).
      const known = { ...decl, hand: [...decl.hand] };
      if (!applyEdit(model, step)) return;
      try {
        await kind.remove(client, object);
        deletedByHand.add(object.stateId!);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        Object.assign(decl, known, { gone: undefined });
      }
    } else if (step.op === "rename" || step.op === "move") {
      const decl = findDecl(model, step.name);
      const id = ids().get(step.name);
      if (!applyEdit(model, step)) return;
      // An object deleted by hand comes back as a new one: nothing to keep.
      decl!.keepId = decl!.pendingReplace || decl!.gone ? undefined : id;
    } else {
      if (!applyEdit(model, step)) return;
      // What the world must have made first (an instance for a firewall device).
      if (step.op === "add" || step.op === "changeReplace") {
        const decl = findDecl(model, step.name)!;
        const need = KIND_BY_NAME.get(decl.kind)!.needs?.(decl.props);
        if (need && !made.has(need.key)) {
          need.make(control);
          made.add(need.key);
        }
      }
    }
  }

  /**
   * A `kill` step: a preview (its planned creates, updates and deletes, each a write), then an `up`
   * with checkpoints on (`PULUMI_SKIP_CHECKPOINTS` out of the workspace's `envVars` for it, so the
   * state records pending operations as a user's does), each write held `KILL_HOLD_MS` by the
   * emulator, killed with every process it started (the CLI, its plugins) once the emulator has
   * seen the write `at` percent into the planned ones (the first at 0); the held ones land after
   * it, to no one. Then what the product says: `pulumi-compute drift` names what an interrupted
   * run left and the command to run (`npx pulumi-compute recover`), which runs with `--yes` and
   * writes nothing to the account, and whose last line says to run `pulumi up`: that `up`
   * (`operation`) is checked as any other. An `up` that ends before the kill point is an `up`: it
   * must succeed, or be refused as one is (`goneRefusal`), whose advice is followed.
   */
  async function killAndRecover(at: number): Promise<void> {
    const planned = (await preview(false)).filter((o) => /^(create|update|delete)/.test(o.split(" ")[1]!)).length;
    const writes = 1 + Math.floor((at / 100) * planned);
    const held = heldObjects();
    const workspace = stack.stack.workspace;
    report.operations++;
    writeProgram(stack);
    for (const method of ["POST", "PUT", "DELETE"])
      control.addFault({ method, pathPattern: "/v4/*", kind: "latency", latencyMs: KILL_HOLD_MS });
    control.clearRequests();
    const skip = workspace.envVars.PULUMI_SKIP_CHECKPOINTS;
    delete workspace.envVars.PULUMI_SKIP_CHECKPOINTS;
    let failure: Error | undefined;
    let finished = false;
    const running = stack.stack.up().then(
      () => void (finished = true),
      (error: Error) => void ((failure = error), (finished = true)),
    );
    let tree: number[] | undefined;
    try {
      tree = await killWhen({
        emulator,
        ready: (log) => log.filter((r) => r.method !== "GET").length >= writes,
        pid: () => runningPulumi("up"),
        finished: () => finished,
      });
      await running;
    } finally {
      if (skip !== undefined) workspace.envVars.PULUMI_SKIP_CHECKPOINTS = skip;
    }
    if (tree) {
      report.kills++;
      const outlived = tree.filter(alive);
      check("a killed run leaves no process", outlived.length === 0, () => `processes ${outlived.join(", ")} outlived the kill`);
      await heldRequestsDone(emulator, KILL_HOLD_MS + 500); // the held writes land before anyone looks
    }
    control.clearFaults();
    if (!tree && failure) {
      // Ended before the kill point, refused as an `up` without refresh is: the advice is followed.
      const message = `up failed: ${failure.message}`;
      if (!goneRefusal(message)) throw new Broken("operation succeeds", message.slice(-3000));
      report.advised++;
      await settleRetained(held);
      return operation("upRefresh");
    }
    // What the product says of the stack now.
    control.clearRequests();
    const said = await productCommand(["drift"]);
    const interrupted = /^pulumi-compute drift: (stack .* from an interrupted run: run `npx pulumi-compute recover` first)$/m.exec(
      said.out,
    );
    check(
      "recovered as the product says",
      (said.code === 0 || said.code === 2) === !interrupted,
      () => `after the ${tree ? "killed" : "finished"} up, pulumi-compute drift exited ${said.code}: ${said.out.slice(-1500)}`,
    );
    if (!tree) options.log?.(`kill at write ${writes} of ${planned}: the up ended first`);
    if (interrupted) {
      report.recoveries++;
      const recovered = await productCommand(["recover", "--yes"]);
      const lines = recovered.stdout.trim().split("\n");
      check(
        "recovered as the product says",
        recovered.code === 0 && lines[lines.length - 1] === "Recovered: run `pulumi up` to finish what the interrupted run started.",
        () => `${interrupted[1]}; pulumi-compute recover --yes exited ${recovered.code}: ${recovered.out.slice(-1500)}`,
      );
      const left = interrupted[1]!.replace(/ held by .*, which is gone/, "");
      const done = lines.filter((l) => /^[A-Z]\w* [\w-]+: (adopted|cleared|interrupted|refused)/.test(l));
      options.log?.(`kill at write ${writes} of ${planned}: ${left}; recover: ${done.join("; ") || "(no resource)"}`);
      const sent = writesSinceClear();
      check("recover writes nothing", sent.length === 0, () => `recover sent ${sent.map((w) => `${w.method} ${w.path}`).join(", ")}`);
      // Its refresh (run when operations were pending) read the account into state.
      if (/pending operation/.test(interrupted[1]!)) {
        const rate = model.faultRate;
        afterOperation(model, "refresh");
        model.faultRate = rate;
      }
    }
    // What left the state with `retainOnDelete` in the killed run is kept, then taken away by hand.
    await settleRetained(held);
    return operation("up");
  }

  /** A `pulumi-compute` command of the stack (its `bin`, from jest's sources and from the bench's build alike). */
  async function productCommand(args: string[]) {
    const root = packageRoot();
    const bin = (JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { bin: Record<string, string> }).bin;
    const cli = path.join(root, bin["pulumi-compute"]!);
    const [verb, ...rest] = args;
    return runProcess(process.execPath, [cli, verb!, "--cwd", stack.workDir, "--stack", stack.stack.name, ...rest], {
      env: { ...process.env, ...stack.env },
      timeoutMs: 300_000,
    });
  }

  try {
    for (const [index, step] of steps.entries()) {
      report.steps = index + 1;
      try {
        if (isOperation(step)) await operation(step.op);
        else if (step.op === "stateMove") await moveAndBack(step.name);
        else if (step.op === "kill") await killAndRecover(step.at);
        else await edit(step);
        await options.afterStep?.(step, index);
        if (options.trace) options.log?.(`step ${index} ${JSON.stringify(step)}: ${report.checks} checks so far`);
      } catch (error) {
        if (!(error instanceof Broken)) throw error;
        report.violation = { invariant: error.invariant, step: index, message: error.message };
        options.log?.(`step ${index} ${JSON.stringify(step)}: ${error.invariant}: ${error.message}`);
        break;
      }
    }
  } finally {
    report.ms = Date.now() - started;
  }
  return report;
}
