/**
 * The two doors a program of the model goes through, built from the same model: the TypeScript
 * classes (an inline program of the Automation API) and the provider plugin (a Pulumi YAML
 * program, `Main.yaml` beside the project's `runtime: yaml`). A seed picks its door
 * (`doorOf`), unless the run names one.
 */
import * as pulumi from "@pulumi/pulumi";
import * as classes from "../../../provider";
import { KIND_BY_NAME } from "./kinds";
import { GROUP_TYPE, type Decl, type Model, type OldName } from "./steps";

export const DOORS = ["classes", "plugin"] as const;
export type Door = (typeof DOORS)[number];

/** The door of a seed: odd seeds the classes, even ones the plugin. */
export const doorOf = (seed: number): Door => (seed % 2 === 1 ? "classes" : "plugin");

/** The inputs of a declared resource, its parent's id given as `parentId` (an Output, or a YAML reference). */
function inputsOf(decl: Decl, parentId: unknown): Record<string, unknown> {
  const kind = KIND_BY_NAME.get(decl.kind)!;
  return { ...kind.fixed, ...decl.props, ...(kind.parent ? { [kind.parent.input]: parentId } : {}) };
}

type ResourceClass = new (name: string, args: Record<string, unknown>, opts: pulumi.CustomResourceOptions) => pulumi.CustomResource;

/** A component of the classes' program that resources move into and out of (`move`). */
class Group extends pulumi.ComponentResource {
  constructor(name: string) {
    super(GROUP_TYPE, name, {}, {});
  }
}

/** An alias as the product's message advises it in TypeScript: the old name, and the old parent (the stack, or a component by its URN). */
const classAlias = (old: OldName): pulumi.Alias => ({
  name: old.name,
  parent: old.group === undefined ? pulumi.rootStackResource : pulumi.createUrn(old.group, GROUP_TYPE),
});

/** The classes' program: the components its resources are in, then the model's resources, in order, each with its options. */
export function classesProgram(model: Model): () => Promise<void> {
  return async () => {
    const made = new Map<string, pulumi.CustomResource>();
    const groups = new Map<string, Group>();
    for (const group of new Set(model.decls.flatMap((d) => (d.group ? [d.group] : [])))) groups.set(group, new Group(group));
    for (const decl of model.decls) {
      const opts: pulumi.CustomResourceOptions = {
        ...(decl.group ? { parent: groups.get(decl.group)! } : {}),
        ...(decl.ignore.length ? { ignoreChanges: [...decl.ignore] } : {}),
        ...(decl.aliases.length ? { aliases: decl.aliases.map(classAlias) } : {}),
        ...(decl.deleteBeforeReplace ? { deleteBeforeReplace: true } : {}),
        ...(decl.protect ? { protect: true } : {}),
        ...(decl.retain ? { retainOnDelete: true } : {}),
      };
      const Class = (classes as unknown as Record<string, ResourceClass>)[decl.kind]!;
      const parent = decl.parent === undefined ? undefined : made.get(decl.parent);
      made.set(decl.name, new Class(decl.name, inputsOf(decl, parent?.id), opts));
    }
  };
}

/**
 * The same program in Pulumi YAML: each resource's properties and options as JSON (YAML's flow
 * style), a parent's id as `${name.id}`, and aliases as the URNs of the old names (`urnOf`). Pulumi
 * YAML declares no components of its own, so a moved resource stays at the top level here (an
 * alias of its own URN left out).
 */
export function yamlProgram(model: Model, urnOf: (kind: string, name: string) => string): string {
  if (!model.decls.length) return "resources: {}\n";
  const lines = ["resources:"];
  for (const decl of model.decls) {
    const aliases = [...new Set(decl.aliases.filter((a) => a.name !== decl.name).map((a) => urnOf(decl.kind, a.name)))];
    const options = {
      ...(decl.ignore.length ? { ignoreChanges: decl.ignore } : {}),
      ...(aliases.length ? { aliases } : {}),
      ...(decl.deleteBeforeReplace ? { deleteBeforeReplace: true } : {}),
      ...(decl.protect ? { protect: true } : {}),
      ...(decl.retain ? { retainOnDelete: true } : {}),
    };
    lines.push(
      `  ${decl.name}:`,
      `    type: compute:index:${decl.kind}`,
      `    properties: ${JSON.stringify(inputsOf(decl, decl.parent === undefined ? undefined : `\${${decl.parent}.id}`))}`,
    );
    if (Object.keys(options).length) lines.push(`    options: ${JSON.stringify(options)}`);
  }
  return `${lines.join("\n")}\n`;
}
