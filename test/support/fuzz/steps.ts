/**
 * Steps as data, and the model they change. A step is plain JSON holding every value it needs
 * (drawn at generation), so a sequence replays, and a shrunk one too: a step whose target no
 * longer exists in the model (its `add` was shrunk away) is a no-op.
 *
 * - program edits: `add`, `remove` (its children go with it), `changeInPlace`, `changeReplace`
 *   (with or without the `deleteBeforeReplace` option), `rename` (with `aliases: [{ name: old }]`),
 *   `move` into a component, to another, or out to the top level (with the alias of the old
 *   parent, as the product's refusal of a move without one advises; the classes door only, since
 *   Pulumi YAML declares no components of its own: there a move changes nothing),
 *   `ignore` (`ignoreChanges` for a field), `protect` (on or off; a team does not remove or
 *   replace what it protects, in the program or still in state until an `up` deployed its
 *   unprotecting: those edits of a protected resource, or of its parent, are no-ops),
 *   `retain` (`retainOnDelete` on or off, for kinds whose parent's delete takes them along:
 *   records and firewall rules; what it leaves behind the runner checks and deletes by hand);
 * - operations: `preview`, `up`, `upRefresh`, `refresh`, `destroy` (a no-op while a resource is
 *   protected; the program stays, so the next `up` creates everything again), `drift`
 *   (`pulumi-compute drift`, which changes nothing), `stateMove` (`pulumi state move` of a
 *   top-level resource and its children to a second stack of the project, whose program takes
 *   their code; an `up` there; and back: `movable` says which, the runner does the rest);
 * - the world: `hand` (a change through the API), `handDelete` (a delete through the API, of an
 *   object without children), `faults` (a rate of 429, 5xx and resets for the next operation).
 *
 * An object deleted by hand is gone until an `up` that saw it gone (after a `refresh`, or an
 * `upRefresh`) creates it again; until then, edits of it and of its children are no-ops (a team
 * restores what was deleted before it changes it), except `remove`, `rename` and `ignore`.
 */
import { Prng } from "../../../emulator/core/prng";
import { KINDS, KIND_BY_NAME, type Draw, type Props } from "./kinds";

export type Step =
  | { op: "add"; kind: string; name: string; parent?: string; props: Props }
  | { op: "remove"; name: string }
  | { op: "changeInPlace"; name: string; field: string; value: string | number }
  | { op: "changeReplace"; name: string; field: string; props: Props; deleteBeforeReplace: boolean }
  | { op: "rename"; name: string; to: string }
  | { op: "move"; name: string; into?: string }
  | { op: "ignore"; name: string; field: string }
  | { op: "protect"; name: string; on: boolean }
  | { op: "retain"; name: string; on: boolean }
  | { op: "hand"; name: string; field: string; value: string | number }
  | { op: "handDelete"; name: string }
  | { op: "faults"; rate: number }
  | { op: "stateMove"; name: string }
  | { op: "kill"; at: number }
  | { op: "preview" | "up" | "upRefresh" | "refresh" | "destroy" | "drift" };

export const OPERATIONS = ["preview", "up", "upRefresh", "refresh", "destroy", "drift"] as const;
export type Operation = (typeof OPERATIONS)[number];
export const isOperation = (step: Step): step is { op: Operation } => (OPERATIONS as readonly string[]).includes(step.op);

/** A change made by hand: `seen` once a refresh has read it into state. */
export interface HandMark {
  field: string;
  value: string | number;
  seen: boolean;
}

/** A name a resource had before, and the component it was in then (absent: the top level). */
export interface OldName {
  name: string;
  group?: string;
}

/** The components a resource moves into (`move`): each a `ComponentResource` of `GROUP_TYPE` at the top level. */
export const GROUPS = ["grp1", "grp2"] as const;
export const GROUP_TYPE = "fuzz:index:Group";

/** A resource the program declares. */
export interface Decl {
  kind: string;
  name: string;
  parent?: string;
  props: Props;
  /** `ignoreChanges`. */
  ignore: string[];
  /** Names and components it had before (`aliases`: the name, and the old parent). */
  aliases: OldName[];
  /** The component it is declared in (`GROUPS`); absent at the top level. */
  group?: string;
  deleteBeforeReplace: boolean;
  /** Hand changes not yet restored by an `up` that saw them. */
  hand: HandMark[];
  /** The object id it must keep through a rename (set by the runner, which reads the state). */
  keepId?: string;
  /** A replacing change the next `up` makes. */
  pendingReplace?: boolean;
  /** The `protect` option. */
  protect?: boolean;
  /** The `protect` the state holds: the program's as of the last `up` (Pulumi refuses to delete what it protects; seed 117). */
  protectDeployed?: boolean;
  /** The `retainOnDelete` option. */
  retain?: boolean;
  /** Deleted by hand; `seen` once a refresh has dropped it from state. */
  gone?: "unseen" | "seen";
}

export interface Model {
  /** In declaration order: a parent always before its children. */
  decls: Decl[];
  /** Faults for the next operation (a rate, 0 for none). */
  faultRate: number;
}

export const emptyModel = (): Model => ({ decls: [], faultRate: 0 });
export const findDecl = (model: Model, name: string): Decl | undefined => model.decls.find((d) => d.name === name);
const childrenOf = (model: Model, name: string): Decl[] => model.decls.filter((d) => d.parent === name);
/**
 * What a `stateMove` of `decl` moves: the resource and its children (which read its id, so they go
 * with it, as docs/guides/refactoring.md says); undefined when it cannot go, as a team would not
 * move it: a child kind (it goes with its parent), one in a component or with a child in one (a
 * component's URN would have to go too), or one deleted by hand or with a child deleted by hand.
 */
export function movable(model: Model, decl: Decl): Decl[] | undefined {
  const moved = [decl, ...childrenOf(model, decl.name)];
  if (KIND_BY_NAME.get(decl.kind)!.parent || moved.some((d) => d.group !== undefined || d.gone)) return undefined;
  return moved;
}
/** Whether the resource is protected, in the program or still in state (an `up` not yet run since its unprotecting). */
export const isProtected = (decl: Decl): boolean => !!decl.protect || !!decl.protectDeployed;
/** Whether the resource or one of its children is protected (it cannot be removed or replaced). */
const guarded = (model: Model, decl: Decl): boolean => isProtected(decl) || childrenOf(model, decl.name).some((c) => guarded(model, c));
/** A declared resource whose object was not deleted by hand. */
const present = (model: Model, name: string): Decl | undefined => {
  const decl = findDecl(model, name);
  return decl && !decl.gone ? decl : undefined;
};

/**
 * Applies a program edit or a world step to the model; `false` when its target is gone (a no-op).
 * Operations change what the model knows of hand changes (`afterOperation`), not the program.
 */
export function applyEdit(model: Model, step: Step): boolean {
  switch (step.op) {
    case "add": {
      if (findDecl(model, step.name)) return false;
      if (step.parent !== undefined && !present(model, step.parent)) return false;
      model.decls.push({
        kind: step.kind,
        name: step.name,
        parent: step.parent,
        props: { ...step.props },
        ignore: [],
        aliases: [],
        deleteBeforeReplace: false,
        hand: [],
      });
      return true;
    }
    case "remove": {
      const decl = findDecl(model, step.name);
      if (!decl || guarded(model, decl)) return false;
      const gone = new Set<string>();
      const drop = (name: string) => {
        gone.add(name);
        for (const child of childrenOf(model, name)) drop(child.name);
      };
      drop(step.name);
      model.decls = model.decls.filter((d) => !gone.has(d.name));
      return true;
    }
    case "changeInPlace": {
      const decl = present(model, step.name);
      if (!decl) return false;
      decl.props[step.field] = step.value;
      return true;
    }
    case "changeReplace": {
      const decl = present(model, step.name);
      if (!decl || guarded(model, decl)) return false;
      Object.assign(decl.props, step.props);
      decl.deleteBeforeReplace = step.deleteBeforeReplace;
      // A new object (unless the replacing field is ignored): nothing of the old one's hand changes remains.
      if (!decl.ignore.includes(step.field)) {
        decl.hand = [];
        decl.pendingReplace = true;
      }
      decl.keepId = undefined;
      return true;
    }
    case "rename": {
      const decl = findDecl(model, step.name);
      if (!decl || findDecl(model, step.to)) return false;
      for (const child of childrenOf(model, step.name)) child.parent = step.to;
      decl.aliases.push({ name: decl.name, ...(decl.group ? { group: decl.group } : {}) });
      decl.name = step.to;
      return true;
    }
    case "move": {
      const decl = present(model, step.name);
      if (!decl || decl.group === step.into) return false;
      decl.aliases.push({ name: decl.name, ...(decl.group ? { group: decl.group } : {}) });
      decl.group = step.into;
      return true;
    }
    case "ignore": {
      const decl = findDecl(model, step.name);
      if (!decl || decl.ignore.includes(step.field)) return false;
      decl.ignore.push(step.field);
      return true;
    }
    case "handDelete": {
      const decl = present(model, step.name);
      if (!decl || decl.protect || childrenOf(model, decl.name).length > 0) return false;
      decl.gone = "unseen";
      decl.hand = [];
      decl.keepId = undefined;
      return true;
    }
    case "protect": {
      const decl = present(model, step.name);
      if (!decl || !!decl.protect === step.on) return false;
      decl.protect = step.on;
      return true;
    }
    case "retain": {
      const decl = present(model, step.name);
      if (!decl || !RETAINABLE.includes(decl.kind) || !!decl.retain === step.on) return false;
      decl.retain = step.on;
      return true;
    }
    case "hand": {
      const decl = present(model, step.name);
      if (!decl) return false;
      decl.hand = decl.hand.filter((h) => h.field !== step.field);
      decl.hand.push({ field: step.field, value: step.value, seen: false });
      return true;
    }
    case "faults":
      model.faultRate = step.rate;
      return true;
    case "stateMove": {
      // The program ends as it was; what the `up` on the second stack did the runner applies (`afterOperation`).
      const decl = findDecl(model, step.name);
      return !!decl && movable(model, decl) !== undefined;
    }
    default:
      return false;
  }
}

/**
 * Kinds a `retainOnDelete` is tried on: those whose parent's delete takes them along (a retained
 * subnet would keep its VPC from being deleted; a retained VPC or domain would keep its unique
 * label or name from the object that replaces it).
 */
export const RETAINABLE = ["DomainRecord", "FirewallRule"];

/** Program edits the next `up` sends writes for (a `kill` is drawn only after one). */
const WRITING_EDITS: readonly Step["op"][] = ["add", "remove", "changeInPlace", "changeReplace"];

/** What the kill stream's seed differs from the main stream's by (`generateSteps`). */
const KILL_STREAM = 0x6b696c6c;

/** What a successful operation teaches the model about hand changes. */
export function afterOperation(model: Model, op: Operation): void {
  if (op === "drift" || op === "preview") return;
  for (const decl of model.decls) {
    if (op === "destroy") {
      // Every object gone and out of state: the next up creates each anew.
      Object.assign(decl, { hand: [], gone: undefined, keepId: undefined, pendingReplace: false, protectDeployed: false });
      continue;
    }
    if (op === "refresh" || op === "upRefresh") {
      for (const h of decl.hand) h.seen = true;
      if (decl.gone) decl.gone = "seen";
    }
    // An up that saw a hand change restores the program's value, unless the field is ignored; one
    // that saw an object gone creates it again.
    if (op === "up" || op === "upRefresh") {
      decl.protectDeployed = !!decl.protect;
      decl.hand = decl.hand.filter((h) => !(h.seen && !decl.ignore.includes(h.field)));
      if (decl.gone === "seen") decl.gone = undefined;
    }
  }
  model.faultRate = 0;
}

/**
 * Generates `count` steps from `seed`: three adds, then edits and the world about 60%, operations
 * 40%, and an `up` last. With `kills` (a rate), after each step past the first three that leaves
 * the program changed since the last `up` (an add, remove or change: the next `up` writes), a
 * `kill` follows at that rate, drawn from a stream of its own (`seed ^ KILL_STREAM`): the main
 * stream draws what it drew without kills, so with none every seed gives the steps it always gave.
 */
export function generateSteps(seed: number, count: number, options: { faults?: boolean; kills?: number } = {}): Step[] {
  const rng = new Prng(seed);
  const killRng = new Prng(seed ^ KILL_STREAM);
  const kills = options.kills ?? 0;
  /** Whether the program has changed since the last `up` in a way the next `up` writes (where a kill may fall). */
  let unsent = false;
  let counter = 0;
  const draw: Draw = { rng, unique: () => ++counter };
  const names = new Map<string, number>();
  const fresh = (prefix: string) => `${prefix}${(names.set(prefix, (names.get(prefix) ?? 0) + 1), names.get(prefix))}`;
  const model = emptyModel();
  const steps: Step[] = [];
  const pick = <T>(items: readonly T[]): T | undefined => (items.length ? items[Math.floor(rng.next() * items.length)] : undefined);
  const attempts: Array<[number, () => Step | undefined]> = [
    [
      4,
      () => {
        const kind = pick(KINDS)!;
        if (!kind.parent) {
          if (model.decls.filter((d) => d.kind === kind.kind).length >= kind.most) return undefined;
          return { op: "add", kind: kind.kind, name: fresh(kind.prefix), props: kind.create(draw) };
        }
        const parent = pick(
          model.decls.filter((d) => d.kind === kind.parent!.kind && !d.gone && childrenOf(model, d.name).length < kind.most),
        );
        if (!parent) return undefined;
        return { op: "add", kind: kind.kind, name: fresh(kind.prefix), parent: parent.name, props: kind.create(draw) };
      },
    ],
    [1.5, () => withDecl((d) => ({ op: "remove", name: d.name }), true)],
    [
      3,
      () =>
        withDecl((d) => {
          const m = pick(KIND_BY_NAME.get(d.kind)!.inPlace);
          return m && { op: "changeInPlace", name: d.name, field: m.field, value: m.next(d.props, draw) };
        }),
    ],
    [
      1.5,
      () =>
        withDecl((d) => {
          const m = pick(KIND_BY_NAME.get(d.kind)!.replacing);
          return (
            m && { op: "changeReplace", name: d.name, field: m.field, props: m.next(d.props, draw), deleteBeforeReplace: rng.next() < 0.5 }
          );
        }),
    ],
    [1, () => withDecl((d) => ({ op: "rename", name: d.name, to: fresh(KIND_BY_NAME.get(d.kind)!.prefix) }), true)],
    [
      0.8,
      () =>
        withDecl((d) => {
          const into = pick([...GROUPS, undefined].filter((g) => g !== d.group));
          return { op: "move", name: d.name, ...(into ? { into } : {}) };
        }),
    ],
    [
      0.5,
      () =>
        withDecl((d) => {
          const kind = KIND_BY_NAME.get(d.kind)!;
          // In-place fields only: an ignored type beside a changed target would be a program the API refuses.
          const field = pick(kind.inPlace.map((m) => m.field).filter((f) => !d.ignore.includes(f)));
          return field === undefined ? undefined : { op: "ignore", name: d.name, field };
        }),
    ],
    [
      1.5,
      () =>
        withDecl((d) => {
          const m = pick(KIND_BY_NAME.get(d.kind)!.hand);
          return m && { op: "hand", name: d.name, field: m.field, value: m.next(d.props, draw) };
        }),
    ],
    [0.7, () => withDecl((d) => ({ op: "protect", name: d.name, on: !d.protect }))],
    [0.5, () => withDecl((d) => (movable(model, d) ? { op: "stateMove", name: d.name } : undefined))],
    [0.6, () => withDecl((d) => (RETAINABLE.includes(d.kind) ? { op: "retain", name: d.name, on: !d.retain } : undefined))],
    [0.7, () => withDecl((d) => (d.gone || childrenOf(model, d.name).length ? undefined : { op: "handDelete", name: d.name }))],
    [options.faults === false ? 0 : 2, () => ({ op: "faults", rate: pick([0.1, 0.2, 0.3])! })],
    [1, () => ({ op: "preview" })],
    [4, () => ({ op: "up" })],
    [1.5, () => ({ op: "upRefresh" })],
    [1, () => ({ op: "refresh" })],
    [0.6, () => ({ op: "drift" })],
    [0.4, () => (model.decls.some(isProtected) ? undefined : { op: "destroy" })],
  ];
  /** A step on a declared resource; one deleted by hand only when `anyDecl` (remove, rename). */
  function withDecl(make: (d: Decl) => Step | undefined, anyDecl = false): Step | undefined {
    const decl = pick(model.decls.filter((d) => anyDecl || !d.gone));
    return decl && make(decl);
  }
  const total = attempts.reduce((n, [w]) => n + w, 0);
  // The last step is an `up`, so every run ends with the whole model checked against the account.
  while (steps.length < count - 1) {
    let r = rng.next() * total;
    const [, make] = attempts.find(([w]) => (r -= w) < 0) ?? attempts[attempts.length - 1]!;
    // The first steps build something to live with.
    const step = steps.length < 3 ? attempts[0]![1]() : make();
    // Only steps that act (a remove of a protected resource would be a no-op).
    if (!step || (!isOperation(step) && !applyEdit(model, step))) continue;
    if (isOperation(step)) afterOperation(model, step.op);
    steps.push(step);
    if (WRITING_EDITS.includes(step.op)) unsent = true;
    else if (step.op === "up" || step.op === "upRefresh") unsent = false;
    else if (step.op === "destroy") unsent = model.decls.length > 0;
    // An `up` killed and recovered ends, for the model, as an `up`.
    if (kills > 0 && unsent && steps.length > 3 && steps.length < count - 1 && killRng.next() < kills) {
      steps.push({ op: "kill", at: Math.floor(killRng.next() * 100) });
      afterOperation(model, "up");
      unsent = false;
    }
  }
  if (count > 0) steps.push({ op: "up" });
  return steps;
}
