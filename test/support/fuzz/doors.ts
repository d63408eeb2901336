/**
 * The two doors a program of the model goes through, built from the same model: the TypeScript
 * classes (an inline program of the Automation API) and the provider plugin (a Pulumi YAML
 * program, `Main.yaml` beside the project's `runtime: yaml`). A seed picks its door
 * (`doorOf`), unless the run names one.
 */
import type * as pulumi from "@pulumi/pulumi";
import * as classes from "../../../provider";
import { KIND_BY_NAME } from "./kinds";
import type { Decl, Model } from "./steps";

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

/** The classes' program: the model's resources, in order, each with its options. */
export function classesProgram(model: Model): () => Promise<void> {
  return async () => {
    const made = new Map<string, pulumi.CustomResource>();
    for (const decl of model.decls) {
      const opts: pulumi.CustomResourceOptions = {
        ...(decl.ignore.length ? { ignoreChanges: [...decl.ignore] } : {}),
        ...(decl.aliases.length ? { aliases: decl.aliases.map((name) => ({ name })) } : {}),
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
 * style), a parent's id as `${name.id}`, and aliases as the URNs of the old names (`urnOf`).
 */
export function yamlProgram(model: Model, urnOf: (kind: string, name: string) => string): string {
  if (!model.decls.length) return "resources: {}\n";
  const lines = ["resources:"];
  for (const decl of model.decls) {
    const options = {
      ...(decl.ignore.length ? { ignoreChanges: decl.ignore } : {}),
      ...(decl.aliases.length ? { aliases: decl.aliases.map((name) => urnOf(decl.kind, name)) } : {}),
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
