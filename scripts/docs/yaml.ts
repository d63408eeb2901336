/**
 * The YAML form of a TypeScript example, for the reference pages: the same program in Pulumi YAML
 * through the provider plugin, read from the example's syntax tree, so each page's examples are
 * one example (the Python and Go forms are written from the same `YamlProgram`: `python.ts`,
 * `go.ts`). What an example may use, and what it becomes:
 *
 * | TypeScript | Pulumi YAML |
 * |---|---|
 * | `new compute.Vpc("app", {…}, { dependsOn: x })` | a resource `app` of type `compute:index:Vpc`, `options: { dependsOn: [${x}] }` |
 * | `compute.getVpcOutput({…})` (or `getVpc`) | a variable with `fn::invoke` of `compute:index:getVpc` (a list's result is its `items`) |
 * | `vpc.id`, `db.hosts.apply((h) => h.primary)` | `${app.id}`, `${app.hosts.primary}` |
 * | `const web1 = compute.getIpsOutput({…}).apply((ips) => ips[0]!.computeId!)` | a variable `web1` with `fn::invoke`; `web1` reads `${web1[0].computeId}` |
 * | `pulumi.interpolate` a template | the template, with `${…}` for each value |
 * | `net.requireOutput("firewallId")` | a `pulumi:pulumi:StackReference` resource `net`, `${net.outputs["firewallId"]}` |
 * | `export const host = …` | an output `host` |
 * | `new pulumi.Config("ns").requireNumber("diskId")` | the program's config `diskId: {type: integer}`, `${diskId}` |
 *
 * YAML has no functions: an `apply` keeps the property path its callback reads
 * (`(r) => r.zoneFile.join("\n")` gives `zoneFile`; `(rs) => rs.map(…)` the whole list). Anything
 * else fails the generator, naming the construct. `test/docs/yaml-examples.test.ts` checks every
 * example against the schema (types, properties, references, functions).
 */
import { createRequire } from "node:module";
import ts from "typescript";
import { packageType } from "../../provider/engine/type-tokens";

/** A Pulumi YAML program, as the object the YAML text is written from. */
export interface YamlProgram {
  /** Config the program reads (`new pulumi.Config(…).requireNumber("diskId")`), by key, with its type. */
  config: Record<string, { type: "string" | "integer" | "boolean" }>;
  resources: Record<string, { type: string; name?: string; properties: Record<string, unknown>; options?: Record<string, unknown> }>;
  variables: Record<string, { "fn::invoke": { function: string; arguments: Record<string, unknown>; return?: string } }>;
  outputs: Record<string, unknown>;
}

/**
 * What a name of the TypeScript refers to in the YAML: a resource or variable key, or a stack
 * reference; `path` is what of it the name stands for (`const web1 = compute.getIpsOutput(…).apply((ips) => ips[0]!.computeId!)`:
 * `[0].computeId` of the variable).
 */
type Binding = { key: string; stackReference?: boolean; path?: string };

/** Whether a data function's result is a list (its invoke answers `items`). */
export type ListResult = (fn: string) => boolean;

/** `js-yaml`, as `@pulumi/pulumi` (which reads Pulumi.yaml with it) has it. */
export function jsYaml(): { dump(value: unknown, options?: object): string; load(text: string): unknown } {
  return createRequire(require.resolve("@pulumi/pulumi/package.json"))("js-yaml") as ReturnType<typeof jsYaml>;
}

/** The YAML text of a program: its resources, variables and outputs, in that order, the empty ones left out. */
export function yamlText(program: YamlProgram): string {
  const sections = Object.fromEntries(Object.entries(program).filter(([, v]) => Object.keys(v as object).length > 0));
  return jsYaml().dump(sections, { lineWidth: -1, noRefs: true, quotingType: '"' }).trimEnd();
}

/** The YAML program of a TypeScript example (a whole program: every name it uses declared in it). */
export function yamlProgram(example: string, isList: ListResult): YamlProgram {
  const source = ts.createSourceFile("example.ts", example, ts.ScriptTarget.ES2023, true);
  const program: YamlProgram = { config: {}, resources: {}, variables: {}, outputs: {} };
  /** Names bound to `new pulumi.Config(…)`: their reads are config values of the YAML program. */
  const configs = new Set<string>();
  const bindings = new Map<string, Binding>();
  const fail = (node: ts.Node, what: string): never => {
    throw new Error(`the example cannot be written in YAML: ${what}: ${node.getText(source)}`);
  };
  const ref = (binding: Binding, path: string) => `\${${binding.key}${binding.path ?? ""}${path}}`;

  /** A unique key for a resource named `name` of `kind` (a second `www` of another kind: `wwwReverseDns`). */
  const resourceKey = (name: string, kind: string) => (name in program.resources || name in program.variables ? `${name}${kind}` : name);

  /**
   * A unique key for a variable named `name`: a program's resources and variables share one
   * namespace (`const zone = compute.getDomainOutput(…)` beside a resource named `zone`: `zoneResult`).
   */
  const variableKey = (name: string) => (name in program.resources || name in program.variables ? `${name}Result` : name);

  /** `compute.getX(…)` / `compute.getXOutput(…)` as a variable named `name`; its binding. */
  const invoke = (call: ts.CallExpression, name: string): Binding => {
    const fn = (call.expression as ts.PropertyAccessExpression).name.text.replace(/Output$/, "");
    const args = call.arguments[0];
    program.variables[name] = {
      "fn::invoke": {
        function: packageType(fn),
        arguments: args ? (value(args) as Record<string, unknown>) : {},
        ...(isList(fn) ? { return: "items" } : {}),
      },
    };
    return { key: name };
  };

  const isComputeCall = (node: ts.Node): node is ts.CallExpression =>
    ts.isCallExpression(node) &&
    ts.isPropertyAccessExpression(node.expression) &&
    ts.isIdentifier(node.expression.expression) &&
    node.expression.expression.text === "compute" &&
    /^get[A-Z]/.test(node.expression.name.text);

  /** `compute.getX(…).apply(cb)`. */
  const isAppliedComputeCall = (node: ts.Node): node is ts.CallExpression =>
    ts.isCallExpression(node) &&
    ts.isPropertyAccessExpression(node.expression) &&
    node.expression.name.text === "apply" &&
    isComputeCall(node.expression.expression);

  /** The name a data function's result read in place gets (`compute.getImageOutput({…}).size`): the output's it stands in. */
  let naming = "result";

  /** The binding and property path (`.hosts.primary`) an expression reads. */
  const reference = (node: ts.Expression): [Binding, string] => {
    if (isComputeCall(node)) return [invoke(node, variableKey(naming)), ""];
    if (ts.isIdentifier(node)) {
      const binding = bindings.get(node.text);
      if (!binding) return fail(node, "a name the example does not declare");
      return [binding, ""];
    }
    if (ts.isPropertyAccessExpression(node)) {
      const [binding, path] = reference(node.expression);
      return [binding, `${path}.${node.name.text}`];
    }
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const target = node.expression.expression;
      const key = node.arguments[0];
      if (ts.isIdentifier(target) && configs.has(target.text) && key && ts.isStringLiteral(key)) {
        // The YAML program's own config key of that name (`${diskId}`), typed as the read says.
        const type = /Number$/.test(method) ? "integer" : /Boolean$/.test(method) ? "boolean" : "string";
        program.config[key.text] = { type };
        return [{ key: key.text }, ""];
      }
      if (method === "apply") {
        const [binding, path] = reference(node.expression.expression);
        return [binding, path + appliedPath(node.arguments[0])];
      }
      if (method === "requireOutput" || method === "getOutput") {
        const [binding] = reference(node.expression.expression);
        const output = node.arguments[0];
        if (!binding.stackReference || !output || !ts.isStringLiteral(output)) return fail(node, "an output of something not a stack");
        return [binding, `.outputs[${JSON.stringify(output.text)}]`];
      }
    }
    return fail(node, "an expression YAML cannot say");
  };

  /** The property path an `apply` callback reads of its argument: `(h) => h.primary` → `.primary`. */
  const appliedPath = (callback: ts.Expression | undefined): string => {
    if (!callback || !ts.isArrowFunction(callback) || !ts.isIdentifier(callback.parameters[0]?.name ?? callback)) {
      return fail(callback ?? source, "an apply whose callback is not an arrow function of one name");
    }
    const param = (callback.parameters[0]!.name as ts.Identifier).text;
    const path: string[] = [];
    let body = callback.body as ts.Expression;
    // The leading property chain on the argument (`.a`, `[0]`, `!` skipped); the calls after it (`.join`, `.map`) are YAML's to skip.
    for (;;) {
      if (ts.isCallExpression(body)) {
        // A method call and what follows it: dropped, with the method's name.
        path.length = 0;
        body = ts.isPropertyAccessExpression(body.expression) ? body.expression.expression : body.expression;
      } else if (ts.isPropertyAccessExpression(body)) {
        path.unshift(`.${body.name.text}`);
        body = body.expression;
      } else if (ts.isElementAccessExpression(body) && ts.isNumericLiteral(body.argumentExpression)) {
        path.unshift(`[${body.argumentExpression.text}]`);
        body = body.expression;
      } else if (ts.isNonNullExpression(body)) {
        body = body.expression;
      } else {
        break;
      }
    }
    if (!ts.isIdentifier(body) || body.text !== param) return fail(callback, "an apply that does not read its argument");
    return path.join("");
  };

  /** A value: a literal, a list or object of values, or a reference (`${app.id}`). */
  const value = (node: ts.Expression): unknown => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isNumericLiteral(node)) return Number(node.text);
    if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(node.operand))
      return -Number(node.operand.text);
    if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
    if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
    if (node.kind === ts.SyntaxKind.NullKeyword) return null;
    if (ts.isArrayLiteralExpression(node)) return node.elements.map((e) => value(e));
    if (ts.isObjectLiteralExpression(node)) {
      return Object.fromEntries(
        node.properties.map((p) => {
          if (!ts.isPropertyAssignment(p) || !(ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)))
            return fail(p, "a property that is not `key: value`");
          return [p.name.text, value(p.initializer)];
        }),
      );
    }
    if (
      ts.isTaggedTemplateExpression(node) &&
      node.tag.getText(source) === "pulumi.interpolate" &&
      ts.isTemplateExpression(node.template)
    ) {
      const template = node.template;
      return template.head.text + template.templateSpans.map((span) => ref(...reference(span.expression)) + span.literal.text).join("");
    }
    return ref(...reference(node));
  };

  /** `new compute.Kind("name", {…}, {…})` as a resource; its binding. */
  const resource = (node: ts.NewExpression): Binding => {
    const kind = ts.isPropertyAccessExpression(node.expression) ? node.expression.name.text : fail(node, "a class not of compute");
    const [nameNode, args, options] = node.arguments ?? [];
    if (!nameNode || !ts.isStringLiteral(nameNode)) return fail(node, "a resource without a literal name");
    const key = resourceKey(nameNode.text, kind);
    program.resources[key] = {
      type: packageType(kind),
      ...(key === nameNode.text ? {} : { name: nameNode.text }),
      properties: args ? (value(args) as Record<string, unknown>) : {},
    };
    if (options) {
      const opts = value(options) as Record<string, unknown>;
      if (typeof opts.dependsOn === "string") opts.dependsOn = [opts.dependsOn];
      program.resources[key]!.options = opts;
    }
    return { key };
  };

  /** A stack reference for `name` (`network.requireOutput(…)` in an example): the resource the YAML declares for it. */
  const stackReference = (name: string) => {
    program.resources[name] = { type: "pulumi:pulumi:StackReference", properties: { name: `organization/${name}/prod` } };
    bindings.set(name, { key: name, stackReference: true });
  };

  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) continue;
    if (ts.isVariableStatement(statement)) {
      const exported = statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;
      for (const declaration of statement.declarationList.declarations) {
        const name = (declaration.name as ts.Identifier).text;
        const init = declaration.initializer ?? fail(declaration, "a declaration without a value");
        if (
          ts.isNewExpression(init) &&
          ts.isPropertyAccessExpression(init.expression) &&
          init.expression.getText(source).startsWith("pulumi.StackReference")
        ) {
          stackReference(name);
        } else if (ts.isNewExpression(init) && init.expression.getText(source) === "pulumi.Config") {
          configs.add(name);
        } else if (ts.isNewExpression(init)) {
          bindings.set(name, resource(init));
        } else if (isComputeCall(init) && !exported) {
          bindings.set(name, invoke(init, variableKey(name)));
        } else if (isAppliedComputeCall(init) && !exported) {
          // A data function's result read through an apply: the invoke, and what of it the name stands for.
          const call = (init.expression as ts.PropertyAccessExpression).expression as ts.CallExpression;
          bindings.set(name, { ...invoke(call, variableKey(name)), path: appliedPath(init.arguments[0]) });
        } else if (exported) {
          naming = name;
          program.outputs[name] = value(init);
        } else {
          return fail(declaration, "a value YAML cannot name");
        }
      }
    } else if (ts.isExpressionStatement(statement) && ts.isNewExpression(statement.expression)) {
      resource(statement.expression);
    } else {
      fail(statement, "a statement YAML cannot say");
    }
  }
  return program;
}
