/**
 * Does the configured Go module proxy serve every module version the engine build needs?
 *
 * The proxy reachable here refuses some versions (403 "This module version is not available"),
 * and a refusal is final. A refused pin only shows on a machine whose module cache lacks it, so
 * a warm cache once hid a setup that failed on every fresh machine. This asks the proxy itself,
 * the way `go mod download` would, for each pin of the tools modules (`tools/<name>/go.mod` and
 * `go.sum`) and of the contract test's module (`test/contract`), and names every version it does
 * not serve.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { Agent, fetch } from "undici";

/** One module version, as go.mod and go.sum write it. */
export interface ModuleVersion {
  path: string;
  version: string;
}

/**
 * A file of the module proxy protocol (https://go.dev/ref/mod#goproxy-protocol): `.info` and
 * `.mod` are what `go mod download` reads first for every module of the build list, `.zip` the
 * source. The proxy here has been seen refusing `.info` alone while serving the other two.
 */
export type ProxyFile = ".info" | ".mod" | ".zip";

/** A module version and the proxy files the build reads for it. */
export interface Needed extends ModuleVersion {
  files: ProxyFile[];
  /** Where the pin comes from, for the report (`tools/pulumi-engine/go.mod`). */
  source: string;
}

export interface Refusal extends Needed {
  file: ProxyFile;
  /** The proxy's answer: `403 This module version is not available.`, or the network error. */
  answer: string;
}

/** One entry of GOPROXY, with what Go does when it cannot serve a module. */
export interface ProxyEntry {
  url: string;
  /** `,`: fall through only on 404/410; `|`: on any error (and after the last, give up). */
  fallThrough: "not-found" | "any-error";
}

/**
 * The proxies of a GOPROXY value (`go env GOPROXY`), in order. `direct` (version control) and
 * `off` end the list: past them nothing can be checked, or served, by a proxy.
 */
export function proxyChain(goproxy: string): ProxyEntry[] {
  const entries: ProxyEntry[] = [];
  const parts = goproxy.trim().split(/([,|])/);
  for (let i = 0; i < parts.length; i += 2) {
    const url = parts[i]!.trim();
    if (url === "" || url === "direct" || url === "off") break;
    entries.push({ url: url.replace(/\/+$/, ""), fallThrough: parts[i + 1] === "|" ? "any-error" : "not-found" });
  }
  return entries;
}

/** The `require` and `replace` directives of a go.mod, with replacements applied. */
export function buildList(goMod: string): ModuleVersion[] {
  const required: ModuleVersion[] = [];
  const replacements = new Map<string, ModuleVersion | "local">(); // key: `path` or `path@version`
  let block: "require" | "replace" | undefined;
  for (const raw of goMod.split("\n")) {
    const line = raw.replace(/\/\/.*$/, "").trim();
    if (line === "") continue;
    if (block && line === ")") {
      block = undefined;
      continue;
    }
    const opened = /^(require|replace)\s*\($/.exec(line);
    if (opened) {
      block = opened[1] as "require" | "replace";
      continue;
    }
    const single = /^(require|replace)\s+(.*)$/.exec(line);
    const [kind, body] = single ? [single[1], single[2]!] : [block, line];
    if (kind === "require") {
      const [modulePath, version] = body.split(/\s+/);
      if (modulePath && version) required.push({ path: modulePath, version });
    } else if (kind === "replace") {
      const [from, to] = body.split("=>").map((side) => side.trim().split(/\s+/));
      if (!from?.[0] || !to?.[0]) continue;
      const key = from[1] ? `${from[0]}@${from[1]}` : from[0];
      // A target without a version is a directory: nothing to download.
      replacements.set(key, to[1] ? { path: to[0], version: to[1] } : "local");
    }
  }
  const list: ModuleVersion[] = [];
  for (const m of required) {
    const target = replacements.get(`${m.path}@${m.version}`) ?? replacements.get(m.path) ?? m;
    if (target !== "local") list.push(target);
  }
  return list;
}

/** The module versions a go.sum lists (`path version` and `path version/go.mod`). */
export function sumEntries(goSum: string): Array<ModuleVersion & { goModOnly: boolean }> {
  const entries: Array<ModuleVersion & { goModOnly: boolean }> = [];
  for (const line of goSum.split("\n")) {
    const [modulePath, version] = line.trim().split(/\s+/);
    if (!modulePath || !version) continue;
    const goModOnly = version.endsWith("/go.mod");
    entries.push({ path: modulePath, version: goModOnly ? version.slice(0, -"/go.mod".length) : version, goModOnly });
  }
  return entries;
}

/**
 * What one tools module needs from the proxy: `.info`, `.mod` and `.zip` of each version in its
 * build list, and `.mod` of every other version its go.sum names (those the module graph reads).
 */
export function neededFromModule(goMod: string, goSum: string, source: string): Needed[] {
  const needed = new Map<string, Needed>();
  for (const m of buildList(goMod)) needed.set(`${m.path}@${m.version}`, { ...m, files: [".info", ".mod", ".zip"], source });
  for (const m of sumEntries(goSum)) {
    const key = `${m.path}@${m.version}`;
    if (!needed.has(key)) needed.set(key, { path: m.path, version: m.version, files: [".mod"], source });
  }
  return [...needed.values()];
}

/** One Go module of the repository: its folder (relative to the root), go.mod and go.sum. */
export interface GoModule {
  dir: string;
  goMod: string;
  goSum: string;
}

function readModule(root: string, dir: string): GoModule {
  const at = path.join(root, dir);
  return {
    dir,
    goMod: fs.readFileSync(path.join(at, "go.mod"), "utf8"),
    goSum: fs.existsSync(path.join(at, "go.sum")) ? fs.readFileSync(path.join(at, "go.sum"), "utf8") : "",
  };
}

/** Every tools module of the repository (`tools/<name>/go.mod`). */
export function toolsModules(root: string): GoModule[] {
  const tools = path.join(root, "tools");
  return fs
    .readdirSync(tools)
    .filter((name) => fs.existsSync(path.join(tools, name, "go.mod")))
    .sort()
    .map((name) => readModule(root, `tools/${name}`));
}

/**
 * Go modules outside `tools/` that `npm test` builds: the contract test with the official Go client,
 * the Go SDK, and the scale benchmark's native floor (`test/bench/native-floor.test.ts`).
 */
export const TEST_GO_MODULES = ["test/contract", "sdks/go", "bench/native-floor"] as const;

/** Every Go module `npm test` needs from the proxy: the tools modules, then the test modules. */
export function goModules(root: string): GoModule[] {
  return [...toolsModules(root), ...TEST_GO_MODULES.map((dir) => readModule(root, dir))];
}

/** Module paths and versions on the proxy: each upper-case letter becomes `!` and its lower case. */
export function escapePath(text: string): string {
  return text.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
}

export function proxyFileUrl(proxy: string, m: ModuleVersion, file: ProxyFile): string {
  return `${proxy}/${escapePath(m.path)}/@v/${escapePath(m.version)}${file}`;
}

interface Answer {
  ok: boolean;
  status: number; // 0: no HTTP answer
  text: string;
}

/**
 * Asks one proxy for one file. `.zip` is asked with HEAD, so no source is downloaded; a proxy
 * that does not answer HEAD is asked for the first byte instead. `file://` proxies are folders.
 */
async function ask(url: string, file: ProxyFile, timeoutMs: number, dispatcher: Agent): Promise<Answer> {
  if (url.startsWith("file://")) {
    const exists = fs.existsSync(fileURLToPath(url));
    return { ok: exists, status: exists ? 200 : 404, text: exists ? "" : "not in the folder" };
  }
  for (let attempt = 1; ; attempt += 1) {
    try {
      const signal = AbortSignal.timeout(timeoutMs);
      let response = await fetch(url, { method: file === ".zip" ? "HEAD" : "GET", signal, dispatcher });
      if (file === ".zip" && (response.status === 405 || response.status === 501)) {
        response = await fetch(url, { headers: { range: "bytes=0-0" }, signal, dispatcher });
      }
      // Read the (small) body whole: a cancelled body costs its connection, and then every
      // request pays for a new one.
      const body = await response.text().catch(() => "");
      const text = response.ok ? "" : body.trim().slice(0, 200);
      // Server trouble is not a refusal: ask again before calling the version unserved.
      if (response.status >= 500 && attempt < 3) continue;
      return { ok: response.ok, status: response.status, text };
    } catch (error) {
      if (attempt < 3) continue;
      return { ok: false, status: 0, text: error instanceof Error ? error.message : String(error) };
    }
  }
}

/** Asks the chain the way Go does: the next proxy only after a 404/410, or any error after `|`. */
async function askChain(chain: ProxyEntry[], m: ModuleVersion, file: ProxyFile, timeoutMs: number, dispatcher: Agent): Promise<Answer> {
  let last: Answer = { ok: false, status: 0, text: "GOPROXY lists no proxy" };
  for (const entry of chain) {
    last = await ask(proxyFileUrl(entry.url, m, file), file, timeoutMs, dispatcher);
    if (last.ok) return last;
    const notFound = last.status === 404 || last.status === 410;
    if (!notFound && entry.fallThrough === "not-found") return last;
  }
  return last;
}

export interface CheckOptions {
  /** Requests in flight at once. */
  concurrency?: number;
  timeoutMs?: number;
}

/** Every needed file the proxy chain does not serve; empty when the build can fetch all of them. */
export async function findRefusals(chain: ProxyEntry[], needed: Needed[], options: CheckOptions = {}): Promise<Refusal[]> {
  // Six at once: measured here, 1321 requests take 17 s; with eight or more in flight some
  // connections stall for about 5 s each and the whole takes minutes.
  const { concurrency = 6, timeoutMs = 20_000 } = options;
  // A version several modules pin (the native floor's are all the engine's) is asked once.
  const asked = new Set<string>();
  const jobs = needed
    .flatMap((m) => m.files.map((file) => ({ m, file })))
    .filter(({ m, file }) => !asked.has(`${m.path}@${m.version}${file}`) && asked.add(`${m.path}@${m.version}${file}`));
  const refusals: Refusal[] = [];
  // Its own connection pool, closed at the end: no socket outlives the check.
  const dispatcher = new Agent({ connections: concurrency });
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const { m, file } = jobs[next++]!;
      const answer = await askChain(chain, m, file, timeoutMs, dispatcher);
      if (!answer.ok) refusals.push({ ...m, file, answer: answer.status ? `${answer.status} ${answer.text}`.trim() : answer.text });
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker));
  } finally {
    await dispatcher.close();
  }
  return refusals.sort((a, b) => `${a.path}@${a.version}${a.file}`.localeCompare(`${b.path}@${b.version}${b.file}`));
}

/** One line per refused version: `gocloud.dev@v0.46.1-… (tools/pulumi-engine): .info 403 …`. */
export function describeRefusals(refusals: Refusal[]): string {
  const byVersion = new Map<string, Refusal[]>();
  for (const r of refusals) {
    const key = `${r.path}@${r.version} (${r.source})`;
    byVersion.set(key, [...(byVersion.get(key) ?? []), r]);
  }
  return [...byVersion].map(([key, rs]) => `${key}: ${rs.map((r) => `${r.file} ${r.answer}`).join("; ")}`).join("\n");
}
