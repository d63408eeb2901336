/**
 * A user's own Pulumi installation and a project of theirs, for the tests of preview support on
 * any Pulumi (issue 39): the installation is made in a folder of its own from the engine this
 * checkout built, its language host, and Pulumi's stock launcher text, as Pulumi's installer lays
 * it out (`~/.pulumi/bin`), with `pulumi` linked from `~/.local/bin` as many users have it; the
 * project is the README's (`examples/new-project` with the packed package installed).
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "./engine";
import { runProcess, type ProcessResult } from "./process";
import type { UserShell } from "./user-shell";
import { installedNewProject } from "./installed-project";

export interface OwnPulumi {
  /** The installation: `bin/pulumi`, its language host, Pulumi's launcher. */
  install: string;
  /** The folder on the user's PATH holding a link to `bin/pulumi` (`~/.local/bin`). */
  links: string;
}

/** Pulumi's installation, made from the engine this checkout's setup built and Pulumi's stock launcher. */
export function ownPulumi(home: string): OwnPulumi {
  const engine = process.env.PULUMI_COMPUTE_ENGINE_BIN;
  if (!engine) throw new Error("PULUMI_COMPUTE_ENGINE_BIN is unset: run through `npm test`, which builds the engine");
  const install = path.join(home, ".pulumi");
  const links = path.join(home, ".local/bin");
  for (const dir of ["bin", "libexec"]) fs.mkdirSync(path.join(install, dir), { recursive: true });
  fs.mkdirSync(links, { recursive: true });
  const copy = (from: string, to: string) => {
    fs.copyFileSync(from, path.join(install, to));
    fs.chmodSync(path.join(install, to), 0o755);
  };
  copy(path.join(engine, "pulumi"), "bin/pulumi");
  copy(path.join(engine, "pulumi-language-nodejs"), "bin/pulumi-language-nodejs");
  copy(path.join(engine, "../libexec/pulumi-language-nodejs"), "libexec/pulumi-language-nodejs");
  copy(path.join(REPO_ROOT, "node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"), "bin/pulumi-resource-pulumi-nodejs");
  fs.symlinkSync(path.join(install, "bin/pulumi"), path.join(links, "pulumi"));
  return { install, links };
}

/** Every entry under `dir` with its kind, mode and content digest (a link: its target), for byte-for-byte comparison. */
export function folderSnapshot(dir: string): Record<string, string> {
  const entries: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of fs.readdirSync(at).sort()) {
      const file = path.join(at, name);
      const stat = fs.lstatSync(file);
      const key = path.relative(dir, file);
      if (stat.isSymbolicLink()) entries[key] = `link ${fs.readlinkSync(file)}`;
      else if (stat.isDirectory()) {
        entries[key] = `dir ${(stat.mode & 0o7777).toString(8)}`;
        walk(file);
      } else {
        const digest = createHash("sha256").update(fs.readFileSync(file)).digest("hex");
        entries[key] = `file ${(stat.mode & 0o7777).toString(8)} ${digest}`;
      }
    }
  };
  walk(dir);
  return entries;
}

/** The environment of a user whose PATH has their own `pulumi` (through `links`) and Node 24, and none of this checkout's toolchain. */
export function ownPulumiEnv(user: UserShell, own: OwnPulumi, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...user.env,
    PATH: [own.links, path.dirname(process.execPath), user.env.PATH].join(":"),
    // Offline here: no update check, and a plugin that is missing fails instead of downloading.
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_CONFIG_PASSPHRASE: "own-pulumi",
    ...extra,
  };
}

/** A command line from a shell of that user, in `cwd`. */
export function ownShell(env: NodeJS.ProcessEnv, command: string, cwd: string, timeoutMs = 600_000): Promise<ProcessResult> {
  return runProcess("bash", ["-c", command], { cwd, env, timeoutMs });
}

/** The README's project in `dir`: the new-project template with the packed package installed (`installedNewProject`, run by `env`). */
export async function readmeProject(dir: string, env: NodeJS.ProcessEnv): Promise<void> {
  fs.cpSync(path.join(REPO_ROOT, "examples/new-project"), dir, { recursive: true });
  await installedNewProject(dir, env);
}

/**
 * The program of issue 39's report, valid as TypeScript and as JavaScript (`compute` in scope): a
 * MySQL database, an image, and three records that read `db.hosts.primary`, `db.port` and
 * `img.size`. With `PC_CHANGE=1` the allow list and the image's label change, in place.
 */
export const READING_PROGRAM = `const change = process.env.PC_CHANGE === "1";
const db = new compute.MysqlDatabase("db", {
  label: "app-db",
  region: "us-iad",
  type: "g6-nanode-1",
  engineId: "mysql/8",
  allowList: change ? ["10.0.2.0/24", "10.0.3.0/24"] : ["10.0.2.0/24"],
});
const img = new compute.Image("img", { filePath: "disk.img.gz", region: "us-iad", label: change ? "golden-2" : "golden" });
const zone = new compute.Domain("zone", { domain: "app.example.com", type: "master", soaEmail: "admin@example.com" });
new compute.DomainRecord("dbhost", { domainId: zone.id, type: "CNAME", name: "db", target: db.hosts.apply((h) => h.primary) });
new compute.DomainRecord("dbport", { domainId: zone.id, type: "TXT", name: "db-port", target: db.port.apply((p) => "port=" + p) });
new compute.DomainRecord("imgsize", { domainId: zone.id, type: "TXT", name: "img-size", target: img.size.apply((s) => "size=" + s) });
`;

/** The changes `pulumi preview --json` plans, as `name: op` (the stack and providers left out). */
export function plannedSteps(previewJson: string): Record<string, string> {
  const steps = (JSON.parse(previewJson) as { steps?: Array<{ op: string; urn: string }> }).steps ?? [];
  return Object.fromEntries(
    steps.filter((s) => s.op !== "same" && !s.urn.includes("::pulumi:")).map((s) => [s.urn.slice(s.urn.lastIndexOf("::") + 2), s.op]),
  );
}
