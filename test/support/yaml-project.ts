/**
 * Pulumi YAML projects for end-to-end tests of the provider plugin, as a user's folder has them:
 * `pulumi-compute` and `@pulumi/pulumi` in its `node_modules` (linked to this repository's build),
 * and a Pulumi.yaml whose one `plugins` entry is the documented one. Commands run from a shell in
 * the folder, with the project's toolchain on PATH (the CLI and the YAML language host beside it).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { PROVIDER_PLUGIN_YAML } from "../../provider/launch/plugins";
import { REPO_ROOT } from "./engine";
import { runProcess, type ProcessResult } from "./process";
import { linkPackages, linkedProjectEnv } from "./user-shell";

/** The YAML example's Pulumi.yaml as a project of its own writes it: the example's plugin path (inside this checkout) made the documented one. */
export function exampleProjectFile(): string {
  const text = fs.readFileSync(path.join(REPO_ROOT, "examples/yaml/Pulumi.yaml"), "utf8");
  const entry = /^plugins:\n(?:[ #].*\n)+/m.exec(text);
  if (!entry || !entry[0].includes("path: ../../node_modules/pulumi-compute/plugins\n")) {
    throw new Error("examples/yaml/Pulumi.yaml no longer names the plugin at ../../node_modules/pulumi-compute/plugins");
  }
  return text.replace(entry[0], PROVIDER_PLUGIN_YAML);
}

export interface YamlProject {
  dir: string;
  /** A command line in a shell in the project folder. */
  shell(command: string): Promise<ProcessResult>;
}

/**
 * A project in `dir` (made) holding `pulumiYaml`, its state in `dir/state`; commands run with the
 * test passphrase, offline, with a Pulumi home of their own and no credentials from the
 * environment (the stack's config gives them).
 */
export function yamlProject(dir: string, pulumiYaml: string): YamlProject {
  fs.mkdirSync(path.join(dir, "state"), { recursive: true });
  linkPackages(dir);
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), pulumiYaml);
  const env = linkedProjectEnv(dir, { PULUMI_BACKEND_URL: `file://${path.join(dir, "state")}` });
  return { dir, shell: (command) => runProcess("bash", ["-c", command], { cwd: dir, env, timeoutMs: 600_000 }) };
}
