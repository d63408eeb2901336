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
 * The plugin name of the package's provider plugin (`provider/plugin/`), which the engine routes
 * the `compute:index:<Kind>` resources and `compute:index:<function>` functions to: Pulumi YAML's,
 * or any program's that names the package's type tokens.
 */
export const PROVIDER_PLUGIN = "compute";

/** The provider plugin's launcher in the plugins folder. */
export const PROVIDER_LAUNCHER = `pulumi-resource-${PROVIDER_PLUGIN}`;

/** This package's root folder: the nearest folder above `from` with its `package.json` (this file runs from `dist/provider/launch/`, or from its source). */
export function packageRoot(from = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (fs.existsSync(manifest) && (JSON.parse(fs.readFileSync(manifest, "utf8")) as { name?: string }).name === "pulumi-compute")
      return dir;
    if (path.dirname(dir) === dir)
      throw new Error(`pulumi-compute: no package.json of pulumi-compute above ${from}; reinstall the package`);
  }
}

/** The package's plugin folder, absolute: `plugins/` at the package's root. */
export const PLUGINS_DIR = path.join(packageRoot(), "plugins");

/** The policy pack this package ships (`provider/policy/`), as a project names it to `--policy-pack`. */
export const GUARDRAILS_PATH = "node_modules/pulumi-compute/policy/compute-guardrails";

/** That pack's launcher, absolute (for the Automation API's `policyPacks`). */
export const GUARDRAILS = path.join(packageRoot(), "policy", "compute-guardrails");

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

/** The one entry a Pulumi YAML project's `Pulumi.yaml` carries for the package's resources (docs/guides/yaml.md). */
export const PROVIDER_PLUGIN_YAML = `plugins:
  providers:
    - name: ${PROVIDER_PLUGIN}
      path: ${PLUGINS_PATH}
`;

/** Project settings with `plugins` (the Automation API writes them to `Pulumi.yaml` as given; its type lacks the key). */
export type ProjectSettingsWithPlugins = ProjectSettings & { plugins?: { providers?: PluginDeclaration[] } };

/**
 * The Automation API's project settings with this package's plugins declared (by absolute path,
 * since an inline program's workspace folder can be anywhere): the launcher of its dynamic
 * resources, and its provider plugin, which the engine starts only for a program that declares a
 * `compute:index:` resource or calls a `compute:index:` function. For example:
 *
 * ```ts
 * LocalWorkspace.createOrSelectStack({ stackName, projectName, program }, {
 *   projectSettings: withComputePlugins({ name: projectName, runtime: "nodejs" }),
 * });
 * ```
 *
 * A declaration of another plugin is kept; one of `pulumi-nodejs` or `compute` is replaced.
 */
export function withComputePlugins<T extends ProjectSettings>(settings: T): T & ProjectSettingsWithPlugins {
  const given = (settings as ProjectSettingsWithPlugins).plugins;
  const ours = [DYNAMIC_PLUGIN, PROVIDER_PLUGIN];
  const others = (given?.providers ?? []).filter((p) => !ours.includes(p.name));
  return { ...settings, plugins: { ...given, providers: [...others, ...ours.map((name) => ({ name, path: PLUGINS_DIR }))] } };
}
