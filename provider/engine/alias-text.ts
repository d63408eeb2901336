/**
 * The `aliases` option that keeps an object through a rename or a move, written in the language of
 * the program that runs (a message names what to do in the program's own terms): TypeScript for
 * the classes and Node.js programs, and Pulumi YAML, Python or Go for programs the plugin serves.
 * Every form holds in every stack of the program: never a URN with a stack's name in it, except
 * where the old parent's chain is unknown (then the old URN itself).
 */

/** The language of the program being served, as its `Pulumi.yaml` names its runtime. */
export type ProgramLanguage = "nodejs" | "yaml" | "python" | "go";

/** An old parent: the stack's top level, or a component (its name, its type, and its own parent). */
export type OldParent = { root: true } | { name: string; type: string; parent: OldParent };

/** An alias: the old name when it changed, and the old parent when the parents changed; or the old URN alone. */
export type Alias = { urn: string } | { name?: string; parent?: OldParent };

/** The type chain of a component's URN (`acme:Net$acme:Inner`). */
function typesOf(parent: Exclude<OldParent, { root: true }>): string {
  return "root" in parent.parent ? parent.type : `${typesOf(parent.parent)}$${parent.type}`;
}

const quote = (text: string) => JSON.stringify(text);

/** One language's spellings of an alias's parts. */
interface Spelling {
  list(items: string): string;
  urn(urn: string): string;
  alias(parts: string[]): string;
  name(name: string): string;
  root: string;
  component(parent: Exclude<OldParent, { root: true }>): string;
}

/** TypeScript's object form, which Pulumi YAML's flow syntax also reads. */
const OBJECTS = {
  list: (items: string) => `aliases: [${items}]`,
  urn: quote,
  alias: (parts: string[]) => `{ ${parts.join(", ")} }`,
  name: (name: string) => `name: ${quote(name)}`,
};

const SPELLINGS: Record<ProgramLanguage, Spelling> = {
  nodejs: { ...OBJECTS, root: "parent: pulumi.rootStackResource", component: (parent) => `parent: ${createUrn(parent)}` },
  // Pulumi YAML's `options: aliases:` takes `noParent`, and a parent's URN (`${pulumi.stack}` keeps it per stack).
  yaml: {
    ...OBJECTS,
    root: "noParent: true",
    component: (parent) => `parent: ${quote(`urn:pulumi:\${pulumi.stack}::\${pulumi.project}::${typesOf(parent)}::${parent.name}`)}`,
  },
  python: {
    list: (items) => `aliases=[${items}]`,
    urn: quote,
    alias: (parts) => `pulumi.Alias(${parts.join(", ")})`,
    name: (name) => `name=${quote(name)}`,
    root: "parent=pulumi.ROOT_STACK_RESOURCE",
    component: (parent) => `parent=${createUrn(parent, "pulumi.create_urn")}`,
  },
  go: {
    list: (items) => `pulumi.Aliases([]pulumi.Alias{${items}})`,
    urn: (urn) => `{URN: pulumi.URN(${quote(urn)})}`,
    alias: (parts) => `{${parts.join(", ")}}`,
    name: (name) => `Name: pulumi.String(${quote(name)})`,
    root: "NoParent: pulumi.Bool(true)",
    component: (parent) =>
      `ParentURN: pulumi.URN("urn:pulumi:" + ctx.Stack() + "::" + ctx.Project() + ${quote(`::${typesOf(parent)}::${parent.name}`)})`,
  },
};

/** `pulumi.createUrn("inner", "acme:Inner", pulumi.createUrn("net", "acme:Net"))`: the run's stack and project. */
function createUrn(parent: Exclude<OldParent, { root: true }>, fn = "pulumi.createUrn"): string {
  const args = [quote(parent.name), quote(parent.type)];
  if (!("root" in parent.parent)) args.push(createUrn(parent.parent, fn));
  return `${fn}(${args.join(", ")})`;
}

/** The option as the program's language writes it: `aliases: [{ name: "app" }]`, `aliases=[pulumi.Alias(name="app")]`, … */
export function aliasText(alias: Alias, language: ProgramLanguage = "nodejs"): string {
  const spell = SPELLINGS[language];
  if ("urn" in alias) return spell.list(spell.urn(alias.urn));
  const parts: string[] = [];
  if (alias.name !== undefined) parts.push(spell.name(alias.name));
  if (alias.parent) parts.push("root" in alias.parent ? spell.root : spell.component(alias.parent));
  return spell.list(spell.alias(parts));
}

/** Whether two aliases name the same old parent (resources that moved together share it). */
export function sameOldParent(a: Alias, b: Alias): boolean {
  return "urn" in a || "urn" in b ? false : JSON.stringify(a.parent) === JSON.stringify(b.parent);
}
