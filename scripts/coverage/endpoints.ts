/**
 * Which endpoints the spec lists, and which sdk method, emulator route and tests serve each —
 * all read from the sources, so the coverage table cannot drift from the code.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";

export interface Endpoint {
  method: string;
  /** As the spec writes it, e.g. `/vpcs/{vpcId}/subnets`. */
  path: string;
}

/** `{vpcId}` and `{id}` name the same slot. */
export function slotKey(endpoint: Endpoint): string {
  return `${endpoint.method} ${endpoint.path.replace(/\{[^}]*\}/g, "{}")}`;
}

/**
 * The rows of every endpoint table in the spec's "Endpoints" section. `{engine}` is expanded to
 * both engines, and the MySQL-only table to its PostgreSQL equivalents (api-facts P4-2).
 */
export function parseSpecEndpoints(markdown: string): Endpoint[] {
  const start = markdown.indexOf("\n## Endpoints");
  const end = markdown.indexOf("\n## ", start + 1);
  const section = markdown.slice(start, end === -1 ? undefined : end);
  const endpoints: Endpoint[] = [];
  for (const line of section.split("\n")) {
    const match = /^\|\s*(GET|POST|PUT|DELETE)\s*\|\s*(\/[^\s|]+)\s*\|/.exec(line);
    if (!match) continue;
    const [, method, specPath] = match as unknown as [string, string, string];
    for (const p of expandEngines(specPath)) endpoints.push({ method, path: p });
  }
  const seen = new Set<string>();
  return endpoints.filter((e) => !seen.has(`${e.method} ${e.path}`) && seen.add(`${e.method} ${e.path}`));
}

function expandEngines(specPath: string): string[] {
  if (specPath.includes("{engine}")) return ["mysql", "postgresql"].map((e) => specPath.replace("{engine}", e));
  if (specPath.startsWith("/databases/mysql/")) return [specPath, specPath.replace("/databases/mysql/", "/databases/postgresql/")];
  return [specPath];
}

// ---------------------------------------------------------------------------------------------
// sdk: every request literal `{ method, path }` and every `new Paginator(http, { path })`

export interface SdkMethod extends Endpoint {
  /** `client.vpcs.subnets.create` */
  call: string;
}

interface Found {
  method: string;
  path: string;
  className: string;
  methodName: string;
}

function templateToPath(node: ts.Expression): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  const template = ts.isTaggedTemplateExpression(node) ? node.template : node;
  if (ts.isNoSubstitutionTemplateLiteral(template)) return template.text;
  // `${this.engine}` is the spec's `{engine}` slot; the accessor chain decides which engine it is.
  if (ts.isTemplateExpression(template)) {
    return template.head.text + template.templateSpans.map((s) => `${s.expression.getText() === "this.engine" ? "{engine}" : "{}"}${s.literal.text}`).join("");
  }
  return undefined;
}

/** The paths an expression can take: a literal, either branch of a conditional, or a local constant's value. */
function pathsOf(expr: ts.Expression, scope: ts.Node): string[] {
  if (ts.isParenthesizedExpression(expr)) return pathsOf(expr.expression, scope);
  if (ts.isConditionalExpression(expr)) return [...pathsOf(expr.whenTrue, scope), ...pathsOf(expr.whenFalse, scope)];
  if (ts.isIdentifier(expr)) {
    let found: ts.Expression | undefined;
    const visit = (n: ts.Node): void => {
      if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.name.text === expr.text && n.initializer) found = n.initializer;
      ts.forEachChild(n, visit);
    };
    visit(scope);
    return found ? pathsOf(found, scope) : [];
  }
  const text = templateToPath(expr);
  return text === undefined ? [] : [text];
}

function enclosing<T extends ts.Node>(node: ts.Node, test: (n: ts.Node) => n is T): T | undefined {
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) if (test(n)) return n;
  return undefined;
}

function scanRequests(file: string): Found[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: Found[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isObjectLiteralExpression(node)) {
      const prop = (name: string) =>
        node.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === name);
      const pathProp = prop("path");
      const methodProp = prop("method");
      const inPaginator = ts.isNewExpression(node.parent) && node.parent.expression.getText(source) === "Paginator";
      const method = methodProp && ts.isStringLiteral(methodProp.initializer) ? methodProp.initializer.text : inPaginator ? "GET" : undefined;
      const cls = enclosing(node, ts.isClassDeclaration);
      const fn = enclosing(node, ts.isMethodDeclaration);
      const paths = pathProp && fn ? pathsOf(pathProp.initializer, fn) : [];
      if (method && cls?.name && fn && ts.isIdentifier(fn.name)) {
        for (const p of paths) found.push({ method, path: p.split("?")[0]!, className: cls.name.text, methodName: fn.name.text });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * `ComputeClient` → `client`, `Vpcs` → `client.vpcs`, `VpcSubnets` → `client.vpcs.subnets`, …; a
 * class reached twice (one per database engine) has two chains.
 */
function accessorChains(files: string[]): Map<string, string[]> {
  const edges: Array<{ owner: string; prop: string; child: string }> = [];
  for (const file of files) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isPropertyAccessExpression(node.left) && node.left.expression.kind === ts.SyntaxKind.ThisKeyword) {
        const owner = enclosing(node, ts.isClassDeclaration)?.name?.text;
        const prop = node.left.name.text;
        const collect = (expr: ts.Node, prefix: string): void => {
          if (ts.isNewExpression(expr)) edges.push({ owner: owner!, prop: prefix, child: expr.expression.getText(source) });
          else if (ts.isObjectLiteralExpression(expr)) {
            for (const p of expr.properties) if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name)) collect(p.initializer, `${prefix}.${p.name.text}`);
          } else ts.forEachChild(expr, (c) => collect(c, prefix));
        };
        if (owner) collect(node.right, prop);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  const chains = new Map<string, string[]>([["ComputeClient", ["client"]]]);
  for (let changed = true; changed; ) {
    changed = false;
    for (const e of edges) {
      for (const base of chains.get(e.owner) ?? []) {
        const chain = `${base}.${e.prop}`;
        const known = chains.get(e.child) ?? [];
        if (!known.includes(chain)) {
          chains.set(e.child, [...known, chain]);
          changed = true;
        }
      }
    }
  }
  return chains;
}

export function scanSdk(root: string): SdkMethod[] {
  const dir = path.join(root, "sdk/resources");
  const files = fs.readdirSync(dir).filter((f) => f.endsWith(".ts")).map((f) => path.join(dir, f));
  const chains = accessorChains([path.join(root, "sdk/client.ts"), ...files]);
  return files.flatMap(scanRequests).flatMap((f) =>
    (chains.get(f.className) ?? []).map((chain) => {
      const engine = /\.(mysql|postgresql)\b/.exec(chain)?.[1] ?? "{}";
      return { method: f.method, path: f.path.replace("{engine}", engine), call: `${chain}.${f.methodName}` };
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// tests: a test exercises an endpoint when it calls its path with its method, calls its sdk
// method, or drives a provider resource or function whose code calls that sdk method

const METHOD_MARKERS: Record<string, RegExp> = {
  GET: /(\.get\s*[(<]|"GET"|'GET')/,
  POST: /(\.post\s*[(<]|"POST"|'POST'|\battach\()/,
  PUT: /(\.put\s*[(<]|"PUT"|'PUT')/,
  DELETE: /(\.del\s*[(<]|\.delete\s*[(<]|"DELETE"|'DELETE')/,
};

function pathPattern(specPath: string): RegExp {
  const body = specPath
    .split(/\{[^}]*\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, "\\$&"))
    .join("(?:\\$\\{[^}]+\\}|[A-Za-z0-9_.:%-]+(?:/[A-Za-z0-9_.:%-]+)?)")
    // The spec's `{engine}` slot, expanded to one engine per row, may be interpolated in a test.
    .replace(/\/databases\/(mysql|postgresql)\//, "/databases/(?:$1|\\$\\{[^}]+\\})/");
  return new RegExp(`["'\`/](?:\\$\\{[^}]+\\})?(?:/v4)?${body}(?=["'\`?])`);
}

/** Provider files → the sdk calls their hooks make and the names tests use to drive them. */
function providerDrivers(root: string): Array<{ names: string[]; calls: string[] }> {
  const drivers: Array<{ names: string[]; calls: string[] }> = [];
  for (const dir of ["provider/resources", "provider/functions"]) {
    const full = path.join(root, dir);
    if (!fs.existsSync(full)) continue;
    for (const file of fs.readdirSync(full).filter((f) => f.endsWith(".ts"))) {
      const text = fs.readFileSync(path.join(full, file), "utf8");
      const calls = [...text.matchAll(/client(?:\(\))?\.([a-zA-Z.]+)\(/g)].map((m) => `client.${m[1]}`);
      const names = [
        ...[...text.matchAll(/export class (\w+)/g)].map((m) => m[1]!),
        ...[...text.matchAll(/export (?:async )?function (\w+)/g)].map((m) => m[1]!),
      ];
      if (calls.length && names.length) drivers.push({ names, calls });
    }
  }
  return drivers;
}

export function testsExercising(root: string, endpoint: Endpoint, sdkCalls: string[], testFiles: Map<string, string>, drivers = providerDrivers(root)): string[] {
  const pattern = pathPattern(endpoint.path);
  const marker = METHOD_MARKERS[endpoint.method]!;
  // `listAll()` pages through `list()`, so either name exercises a collection endpoint.
  const names = [...sdkCalls, ...sdkCalls.filter((c) => c.endsWith(".list")).map((c) => `${c}All`)];
  const calls = names.map((c) => c.replace(/^client\./, ""));
  const drivenBy = drivers.filter((d) => d.calls.some((c) => names.includes(c)));
  const hits: string[] = [];
  for (const [file, raw] of testFiles) {
    const text = inlineConstants(raw);
    const byPath = text.split("\n").some((line) => pattern.test(line) && marker.test(line));
    const bySdk = calls.some((c) => text.includes(`.${c}(`));
    const byProvider = drivenBy.some((d) => d.names.some((n) => new RegExp(`\\b(new ${n}\\(|${n}\\(|provider\\("${n}"\\))`).test(text)));
    if (byPath || bySdk || byProvider) hits.push(file);
  }
  return hits.sort();
}

/** Substitutes a file's simple string constants (`const BASE = "/databases/mysql/instances"`) into `${BASE}` uses. */
function inlineConstants(text: string): string {
  const constants = new Map<string, string>();
  for (const m of text.matchAll(/\bconst ([A-Za-z_$][\w$]*)\s*=\s*["'`]([^"'`$\n]*)["'`]/g)) constants.set(m[1]!, m[2]!);
  if (constants.size === 0) return text;
  return text
    .replace(/\$\{([A-Za-z_$][\w$]*)\}/g, (whole, name: string) => constants.get(name) ?? whole)
    // A constant passed as a call argument on its own: `emu.get(BASE)`.
    .replace(/([(,]\s*)([A-Za-z_$][\w$]*)(?=\s*[,)])/g, (whole, lead: string, name: string) => (constants.has(name) ? `${lead}"${constants.get(name)}"` : whole));
}

export function readTests(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".test.ts")) files.set(path.relative(root, full), fs.readFileSync(full, "utf8"));
    }
  };
  walk(path.join(root, "test"));
  return files;
}
