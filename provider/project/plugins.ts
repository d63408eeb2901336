/**
 * The plugins this package ships, as a project declares them.
 *
 * The engine starts a project's dynamic resources through the provider plugin named
 * `pulumi-nodejs` (`pulumi-resource-pulumi-nodejs`), and a plugin the project declares in its
 * `Pulumi.yaml` (`plugins: providers:`) takes precedence over the one beside `pulumi` or on `PATH`.
 * This package carries its own launcher in `plugins/` at its root: Pulumi's dynamic provider host,
 * started as Pulumi starts it, with this package's preview support preloaded (`provider/host/`).
 * So preview support comes with the project, on any compatible Pulumi, and nothing is installed
 * beside the user's `pulumi`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { ProjectSettings } from "@pulumi/pulumi/automation";

/** The plugin name that serves dynamic resources; the engine routes `pulumi-nodejs:dynamic/…` types to it. */
export const DYNAMIC_PLUGIN = "pulumi-nodejs";

/** The package's plugin folder, relative to a project that has the package in its own `node_modules`. */
export const PLUGINS_PATH = "node_modules/pulumi-compute/plugins";

/** The launcher of dynamic resources in that folder. */
export const DYNAMIC_LAUNCHER = `pulumi-resource-${DYNAMIC_PLUGIN}`;

/**
 * The package's plugin folder, absolute: `plugins/` at the package's root, the nearest folder
 * above this file that has it (this file runs from `dist/provider/project/`, or from its source).
 */
export const PLUGINS_DIR = pluginsDir(__dirname);

function pluginsDir(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "plugins", DYNAMIC_LAUNCHER))) return path.join(dir, "plugins");
    if (path.dirname(dir) === dir) throw new Error(`pulumi-compute's plugins/ folder is missing above ${from}: reinstall the package`);
  }
}

/** The policy pack this package ships (`provider/policy/`), as a project names it to `--policy-pack`. */
export const GUARDRAILS_PATH = "node_modules/pulumi-compute/policy/compute-guardrails";

/** That pack's launcher, absolute (for the Automation API's `policyPacks`). */
export const GUARDRAILS = path.join(PLUGINS_DIR, "..", "policy", "compute-guardrails");

/** One entry of `Pulumi.yaml`'s `plugins: providers:`. */
export interface PluginDeclaration {
  name: string;
  path: string;
}

/** What a project's `Pulumi.yaml` carries for preview support, as text (the template, the import command, the docs). */
export const PLUGINS_YAML = `plugins:
  providers:
    - name: ${DYNAMIC_PLUGIN} # pulumi-compute's launcher: exact previews on any Pulumi
      path: ${PLUGINS_PATH}
`;

/** Project settings with `plugins` (the Automation API writes them to `Pulumi.yaml` as given; its type lacks the key). */
export type ProjectSettingsWithPlugins = ProjectSettings & { plugins?: { providers?: PluginDeclaration[] } };

/**
 * The Automation API's project settings with this package's launcher declared (by absolute path,
 * since an inline program's workspace folder can be anywhere), for example:
 *
 * ```ts
 * LocalWorkspace.createOrSelectStack({ stackName, projectName, program }, {
 *   projectSettings: withComputePlugins({ name: projectName, runtime: "nodejs" }),
 * });
 * ```
 *
 * A declaration of another plugin is kept; one of `pulumi-nodejs` is replaced.
 */
export function withComputePlugins<T extends ProjectSettings>(settings: T): T & ProjectSettingsWithPlugins {
  const given = (settings as ProjectSettingsWithPlugins).plugins;
  const others = (given?.providers ?? []).filter((p) => p.name !== DYNAMIC_PLUGIN);
  return { ...settings, plugins: { ...given, providers: [...others, { name: DYNAMIC_PLUGIN, path: PLUGINS_DIR }] } };
}
