/**
 * The generated `index.ts`: one resource per object found, grouped by area; its inputs derived
 * from the resource's spec (`inputs.ts`), a parent's id (and any other object's id it references)
 * written as a reference to that resource, `adoptId` on each, names derived from labels
 * (`program-names.ts`), laid out as Prettier would (`literal.ts`). Pure: the same account gives
 * the same text.
 */
import type { AnySpec, Values } from "../../engine/spec";
import type { Area, AreaContents, FoundObject } from "./account";
import { programInputs } from "../../engine/import-inputs";
import { Reference, WIDTH, layout } from "./literal";
import { UniqueNames, identifier, identifiers, resourceNames, slug } from "./program-names";

/** One resource of the program. */
export interface ProgramResource {
  kind: string;
  /** The Pulumi resource name. */
  name: string;
  /** The `const` it is bound to. */
  identifier: string;
  /** The inputs, `adoptId` last; a parent's id is a `Reference`. */
  inputs: Values;
  comment?: string;
  /** The object it adopts. */
  source: FoundObject;
}

export interface ProgramSection {
  title: string;
  resources: ProgramResource[];
}

export interface Program {
  sections: ProgramSection[];
  notes: string[];
}

/** A short lowercase word per kind, for names of objects whose label gives nothing usable. */
const fallbackWord = (kind: string) => kind.replace(/[A-Z]/g, (c, i: number) => (i === 0 ? "" : "-") + c.toLowerCase());

/**
 * The program for what was read: `contents` in the order of `areas`. `specs` are the provider's
 * resource specs by kind (`RESOURCE_SPECS`).
 */
export function buildProgram(
  specs: Readonly<Record<string, AnySpec>>,
  areas: ReadonlyArray<Pick<Area, "title">>,
  contents: readonly AreaContents[],
): Program {
  const names = new Map<string, UniqueNames>(); // one scope per resource type, as Pulumi's URNs
  const idents = identifiers();
  const made = new Map<FoundObject, ProgramResource>();
  const sections: ProgramSection[] = [];
  areas.forEach((area, i) => {
    const resources: ProgramResource[] = [];
    for (const object of contents[i]!.objects) {
      const spec = specs[object.kind];
      if (!spec) throw new Error(`no resource spec ${object.kind}`);
      // A filter keeps children with their parent, so the parent is normally in the program.
      const parent = object.parent && made.get(object.parent.object);
      const base = slug(object.label, fallbackWord(object.kind));
      const scope = names.get(object.kind) ?? names.set(object.kind, resourceNames()).get(object.kind)!;
      const name = scope.take(parent ? `${parent.name}-${base}` : base);
      const ident = idents.take(identifier(name, fallbackWord(object.kind).split("-")[0]!));
      const given: Values = { ...object.given, ...(object.parent && { [object.parent.input]: Number(object.parent.object.id) }) };
      const inputs = { ...programInputs(spec, object.record, given), ...object.written };
      if (object.parent && parent) inputs[object.parent.input] = new Reference(parent.identifier);
      for (const { path, object: referenced } of object.references ?? []) {
        const target = made.get(referenced);
        if (target) setAt(inputs, path, new Reference(target.identifier));
      }
      const resource = {
        kind: object.kind,
        name,
        identifier: ident,
        inputs: { ...inputs, adoptId: object.id },
        comment: object.comment,
        source: object,
      };
      made.set(object, resource);
      resources.push(resource);
    }
    sections.push({ title: area.title, resources });
  });
  return { sections: sections.filter((s) => s.resources.length > 0), notes: contents.flatMap((c) => c.notes) };
}

/** Sets the value at `path` of `values`, when every step before it is there. */
function setAt(values: Values, path: readonly (string | number)[], value: unknown): void {
  let at: unknown = values;
  for (const step of path.slice(0, -1))
    at = at !== null && typeof at === "object" ? (at as Record<string | number, unknown>)[step] : undefined;
  if (at !== null && typeof at === "object") (at as Record<string | number, unknown>)[path[path.length - 1]!] = value;
}

/** One resource as a statement. */
export function renderResource(resource: ProgramResource): string {
  const start = `const ${resource.identifier} = new compute.${resource.kind}(`;
  const head = `${start}${JSON.stringify(resource.name)}, `;
  // The inputs object hugs the call's parentheses when the line up to its `{` fits; else every argument gets its own line.
  const statement =
    head.length + 1 <= WIDTH
      ? `${head}${layout(resource.inputs, 0, head, ");")});`
      : `${start}\n  ${JSON.stringify(resource.name)},\n  ${layout(resource.inputs, 1, "", ",")},\n);`;
  return resource.comment ? `// ${resource.comment}\n${statement}` : statement;
}

/** Wraps a comment's text at the width, each line starting with `// `. */
function commentLines(text: string): string[] {
  const lines: string[] = [];
  let line = "//";
  for (const word of text.split(/\s+/)) {
    if (line.length + 1 + word.length > WIDTH && line !== "//") {
      lines.push(line);
      line = "//";
    }
    line += ` ${word}`;
  }
  return [...lines, line];
}

/** index.ts. `source` says where the account was read (the API URL; never a credential). */
export function renderProgram(program: Program, source: string): string {
  const parts = [
    [
      ...commentLines(
        `Generated by \`pulumi-compute import\` from ${source}. The first \`pulumi up\` adopts every object below ` +
          "(adoptId) and changes nothing; once it has, the adoptId lines may be removed.",
      ),
      ...program.notes.flatMap((note) => commentLines(`Left out: ${note}.`)),
      'import * as compute from "pulumi-compute";',
    ].join("\n"),
    ...program.sections.map((section) => [`// ${section.title}`, ...section.resources.map(renderResource)].join("\n")),
  ];
  return `${parts.join("\n\n")}\n`;
}
