/**
 * Who holds an object, so that nothing the product says or does loses one on day two.
 *
 * Two questions, answered in two places:
 *
 * - **Within one deployment** (`Holdings`): the provider process serves every resource of a run,
 *   so it knows which existing objects the program's resources claim (`adoptId`, seen at check,
 *   which runs for every resource of the program before any delete). A delete of an object that
 *   a resource of the run claims drops the deleted resource from state only: a rename that was
 *   followed by `adoptId` keeps its object, also in the run after one killed between the adopt and
 *   the delete. An object a create makes is new, so no other resource's state can hold its id.
 * - **Across the backend's stacks** (`holderOf`): the checkpoints of the project's stacks, read
 *   from a diy backend (`file://`, `postgres://`) as `drift --all` and `recover` read them, say
 *   whether an object is managed by this stack under another name (a rename or a move), by another
 *   stack (the same program deployed as `dev` and `staging`, or another program), or by none
 *   (made by hand). A clash on
 *   a unique key found at check, and an `adoptId`, are judged by it (`engine.ts`). The
 *   checkpoints come through the context's backend port (`ports.ts`), which the serving layer
 *   fills from `stores/backend-store.ts`.
 */
import { aliasText, type Alias, type OldParent, type ProgramLanguage } from "./alias-text";
import type { ProviderContext } from "./context";
import type { StateEntry } from "./ports";
import type { AnySpec } from "./spec";
import { kindOfType } from "./type-tokens";

/** The objects the resources of this run claim with `adoptId`, by kind and id: the resource's name, `""` when unknown. */
export class Holdings {
  private readonly held = new Map<string, string>();

  hold(spec: AnySpec, id: string, resource: string | undefined): void {
    this.held.set(`${spec.name} ${id}`, resource ?? "");
  }

  /** The name of the resource that holds the object (`""` when not known), or undefined when none does. */
  holder(spec: AnySpec, id: string): string | undefined {
    return this.held.get(`${spec.name} ${id}`);
  }

  /** The unique keys the run's existing resources were checked with, by URN (or by the key alone where no URN is known). */
  private readonly keys = new Set<string>();

  /** Notes that the resource `urn` exists with `key` (a check with its recorded inputs). */
  exists(spec: AnySpec, urn: string | undefined, key: string): void {
    this.keys.add(`${spec.name}\n${urn ?? ""}\n${key}`);
  }

  /**
   * Whether a check without recorded inputs is the resource's own again: Pulumi checks a
   * replacement a second time without its olds, and then its unchanged key is its own object's,
   * which `diff` has the engine delete first.
   */
  isOwn(spec: AnySpec, urn: string | undefined, key: string): boolean {
    return this.keys.has(`${spec.name}\n${urn ?? ""}\n${key}`);
  }

  /** The URNs of the resources checked in this run. */
  private readonly checkedUrns = new Set<string>();

  /** Notes that the resource `urn` was checked in this run (the program declares it). */
  checked(urn: string | undefined): void {
    if (urn !== undefined) this.checkedUrns.add(urn);
  }

  /** Whether the resource `urn` was checked in this run. */
  wasChecked(urn: string): boolean {
    return this.checkedUrns.has(urn);
  }
}

/** The process's holdings: every resource it serves shares them. */
export const holdings = (ctx: ProviderContext): Holdings => ctx.shared("holdings", () => new Holdings());

/** Who manages an object, as the backend's checkpoints say. */
export type Holder =
  | { where: "this resource" }
  | {
      where: "this stack";
      urn: string;
      resource: string;
      /** The alias that keeps the object, in a form that holds in every stack (`aliasOf`); from the URNs alone when absent. */
      alias?: Alias;
      /**
       * A move (its parents changed): this stack's other resources of the same old parent that the
       * run has not checked, which may have moved with it (`movedAlongside`). The engine stops a
       * preview at the first resource it refuses, so the first message names them all.
       */
      alongside?: MovedResource[];
    }
  | { where: "another stack"; stack: string; urn: string; resource: string }
  | { where: "no stack" }
  | { where: "unknown"; why: string };

/** The parts of a URN: `urn:pulumi:<stack>::<project>::<type chain>::<name>`. */
export interface UrnParts {
  stack: string;
  project: string;
  /** The parent types and the type, `$`-joined. */
  types: string;
  name: string;
}

export function parseUrn(urn: string): UrnParts | undefined {
  const match = /^urn:pulumi:([^:]+)::([^:]+)::(.+)::([^:]*)$/.exec(urn);
  if (!match) return undefined;
  return { stack: match[1]!, project: match[2]!, types: match[3]!, name: match[4]! };
}

/**
 * Who manages `spec`'s object `id` among the backend's stacks, as seen from the resource of `urn`:
 * that resource itself, another of its stack, another stack (of any project), or none. Each
 * stack's checkpoint is read once per process: what matters is the state the run started from.
 */
export async function holderOf(spec: AnySpec, ctx: ProviderContext, id: string, urn: string | undefined): Promise<Holder> {
  const own = urn === undefined ? undefined : parseUrn(urn);
  if (!own) return { where: "unknown", why: "the resource's URN is not known to the provider" };
  const url = ctx.ports.backend?.url();
  if (!url) return { where: "unknown", why: "the stack's backend is not known to the provider" };
  let stacks: string[] | undefined;
  try {
    stacks = await stacksOf(ctx, url);
  } catch (error) {
    return { where: "unknown", why: `reading the backend failed (${(error as Error).message})` };
  }
  if (!stacks) return { where: "unknown", why: "the backend is not one the provider can read (file:// and postgres:// are)" };
  const prefix = `organization/${own.project}/`;
  const self = prefix + own.stack;
  // A login or a setting that is not this run's backend would answer for other stacks.
  if (!stacks.includes(self)) return { where: "unknown", why: "the backend the provider found does not hold this stack" };
  // This stack first (a rename is the likelier story, and its message keeps the object), then
  // the project's other stacks, then other projects' (one account serves many programs).
  const rank = (stack: string) => (stack === self ? 0 : stack.startsWith(prefix) ? 1 : 2);
  for (const stack of [...stacks].sort((a, b) => rank(a) - rank(b))) {
    let entries: StateEntry[] | undefined;
    try {
      entries = await resourcesOf(ctx, url, stack);
    } catch (error) {
      return { where: "unknown", why: `reading stack ${stack} failed (${(error as Error).message})` };
    }
    const holding = entries?.filter((e) => e.id === id && kindOfType(e.type) === spec.name) ?? [];
    // Its own object: Pulumi checks a replacement (`--replace`, `replaceOnChanges`) again without its recorded inputs.
    if (stack === self && holding.some((e) => e.urn === urn)) return { where: "this resource" };
    const found = holding.find((e) => e.urn !== urn);
    if (!found) continue;
    const resource = parseUrn(found.urn)?.name ?? found.urn;
    if (stack === self) {
      const all = entries ?? [];
      const alias = aliasOf(found.urn, urn, all);
      const moved = parseUrn(found.urn)?.types !== own.types;
      return { where: "this stack", urn: found.urn, resource, alias, alongside: moved ? movedAlongside(ctx, all, found, urn) : [] };
    }
    // Another stack of this project by its name; of another project, as `project/stack`.
    const name = stack.startsWith(prefix) ? stack.slice(prefix.length) : stack.replace(/^organization\//, "");
    return { where: "another stack", stack: name, urn: found.urn, resource };
  }
  return { where: "no stack" };
}

function stacksOf(ctx: ProviderContext, url: string): Promise<string[] | undefined> {
  const cache = ctx.shared("backend-stacks", () => new Map<string, Promise<string[] | undefined>>());
  if (!cache.has(url)) cache.set(url, ctx.ports.backend!.stacks(url));
  return cache.get(url)!;
}

function resourcesOf(ctx: ProviderContext, url: string, stack: string): Promise<StateEntry[] | undefined> {
  const cache = ctx.shared("backend-states", () => new Map<string, Promise<StateEntry[] | undefined>>());
  const key = `${url}\n${stack}`;
  if (!cache.has(key)) cache.set(key, ctx.ports.backend!.resources(url, stack));
  return cache.get(key)!;
}

/** A resource of this stack that may have moved with a refused one, as a message names it. */
export interface MovedResource {
  /** Its name in the program. */
  resource: string;
  /** Its kind (`VpcSubnet`). */
  kind: string;
  /** The alias that keeps it, in a form that holds in every stack. */
  alias: Alias;
}

/**
 * This stack's other resources of `found`'s old parent (the stack's top level, or a component)
 * that the run has not checked: the resources of this package that share `found`'s move, if they
 * moved with it. One checked at its old URN stayed; one checked at a new URN is not in state yet.
 */
export function movedAlongside(ctx: ProviderContext, entries: StateEntry[], found: StateEntry, urn: string | undefined): MovedResource[] {
  const run = holdings(ctx);
  const parentTypes = (entry: StateEntry) => parseUrn(entry.urn)?.types.split("$").slice(0, -1).join("$");
  const sameParent = (entry: StateEntry) =>
    found.parent !== undefined ? entry.parent === found.parent : parentTypes(entry) === parentTypes(found);
  const moved: MovedResource[] = [];
  for (const entry of entries) {
    const kind = kindOfType(entry.type);
    if (kind === undefined || entry.urn === found.urn || entry.urn === urn || !sameParent(entry) || run.wasChecked(entry.urn)) continue;
    const name = parseUrn(entry.urn)?.name ?? entry.urn;
    moved.push({ resource: name, kind, alias: aliasOf(entry.urn, undefined, entries) });
  }
  return moved.sort((a, b) => a.resource.localeCompare(b.resource));
}

/** The Pulumi type of a stack's own resource, the parent of the resources at its top level. */
const STACK_TYPE = "pulumi:pulumi:Stack";

/**
 * The alias that keeps an object through a rename or a move, in a form that holds in every stack
 * of the program (never a URN with a stack's name in it): the old name alone when only the name
 * changed; for a move (its parents changed, or `newUrn` unknown), the old parent (the stack's top
 * level, or the old component with its own parents), with the old name when it changed too.
 * `entries`: the stack's checkpoint, which holds each old parent's own parent. `aliasText` writes
 * it in the program's language.
 */
export function aliasOf(oldUrn: string, newUrn: string | undefined, entries: StateEntry[] = []): Alias {
  const old = parseUrn(oldUrn);
  const now = newUrn === undefined ? undefined : parseUrn(newUrn);
  if (!old) return { urn: oldUrn };
  if (now && old.types === now.types) return { name: old.name };
  const byUrn = new Map(entries.map((e) => [e.urn, e]));
  const parentOf = (urn: string): string | undefined => {
    const recorded = byUrn.get(urn)?.parent;
    if (recorded !== undefined) return recorded;
    // Not in the checkpoint given: at the top level when its type chain is one type long.
    return parseUrn(urn)?.types.includes("$") ? undefined : STACK_TYPE;
  };
  const parentForm = (parentUrn: string | undefined, depth: number): OldParent | undefined => {
    if (parentUrn === undefined || depth > 20) return undefined;
    if (parentUrn === STACK_TYPE) return { root: true };
    const parent = parseUrn(parentUrn);
    if (!parent) return undefined;
    if (parent.types === STACK_TYPE) return { root: true };
    const grand = parentOf(parentUrn);
    const grandForm = grand === undefined ? undefined : parentForm(grand, depth + 1);
    if (grandForm === undefined) return undefined;
    return { name: parent.name, type: parent.types.split("$").pop()!, parent: grandForm };
  };
  const form = parentForm(parentOf(oldUrn), 0);
  // Without its old parent's chain, the old URN itself (it names this stack).
  if (form === undefined) return { urn: oldUrn };
  return now && now.name !== old.name ? { name: old.name, parent: form } : { parent: form };
}

/** `aliasOf` as the program's language writes it (TypeScript unless said). */
export const aliasFor = (oldUrn: string, newUrn: string | undefined, entries: StateEntry[] = [], language?: ProgramLanguage): string =>
  aliasText(aliasOf(oldUrn, newUrn, entries), language);
