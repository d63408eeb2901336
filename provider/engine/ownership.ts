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
 *   fills from `stack/backend-store.ts`.
 */
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
}

/** The process's holdings: every resource it serves shares them. */
export const holdings = (ctx: ProviderContext): Holdings => ctx.shared("holdings", () => new Holdings());

/** Who manages an object, as the backend's checkpoints say. */
export type Holder =
  | { where: "this resource" }
  | { where: "this stack"; urn: string; resource: string }
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
    if (stack === self) return { where: "this stack", urn: found.urn, resource };
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

/**
 * The resource option that keeps an object through a rename or a move: the old name alone when
 * only the name changed, else the old URN (a move into or out of a component changes its parents).
 */
export function aliasFor(oldUrn: string, newUrn: string | undefined): string {
  const old = parseUrn(oldUrn);
  const now = newUrn === undefined ? undefined : parseUrn(newUrn);
  if (old && now && old.types === now.types) return `aliases: [{ name: ${JSON.stringify(old.name)} }]`;
  return `aliases: [${JSON.stringify(oldUrn)}]`;
}
