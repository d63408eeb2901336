/**
 * The Pulumi project an emulated stack runs: an inline program's, made here, or a project
 * folder's, read from its `Pulumi.yaml`. Either way the workspace is a temporary folder of the
 * stack's own, so nothing is written into the project (no `Pulumi.<stack>.yaml`), and every path
 * the engine resolves against the workspace is made absolute.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, type PulumiCommand, type ProjectSettings } from "@pulumi/pulumi/automation";
import { projectOf } from "../launch/peer";
import { packageRoot, withComputePlugins, type PluginDeclaration, type ProjectSettingsWithPlugins } from "../launch/plugins";

/**
 * The folder an inline program's provider plugin starts in (its `main`): the project that has this
 * package installed, from which the plugin loads `pulumi-compute/registry` and `@pulumi/pulumi`.
 */
export function inlineProgramMain(): string {
  const main = projectOf(packageRoot());
  try {
    require.resolve("pulumi-compute/registry", { paths: [main] });
  } catch {
    throw new Error(
      `pulumi-compute/testing: pulumi-compute does not resolve from ${main}, where the engine starts the provider; install it there`,
    );
  }
  return main;
}

/**
 * An inline program's project: its provider plugin starts in the folder that has this package
 * installed, and it is this package's launcher (`withComputePlugins`), for exact previews.
 */
export function inlineProject(name: string, backendUrl: string): ProjectSettings {
  return withComputePlugins({ name, runtime: "nodejs", main: inlineProgramMain(), backend: { url: backendUrl } });
}

/**
 * A project folder's settings, to be run from another workspace: `main` and every declared
 * plugin's path made absolute against the folder, the backend the stack's own.
 */
export async function folderProject(folder: string, pulumiCommand: PulumiCommand, backendUrl: string): Promise<ProjectSettings> {
  const root = path.resolve(folder);
  if (!fs.existsSync(path.join(root, "Pulumi.yaml")) && !fs.existsSync(path.join(root, "Pulumi.yml"))) {
    throw new Error(`pulumi-compute/testing: ${root} has no Pulumi.yaml; give the folder of a Pulumi project, or an inline program`);
  }
  const settings: ProjectSettingsWithPlugins = await (await LocalWorkspace.create({ workDir: root, pulumiCommand })).projectSettings();
  // Every kind of plugin a project declares (providers, languages, analyzers) by a path of its folder.
  const plugins = settings.plugins
    ? Object.fromEntries(
        Object.entries(settings.plugins as Record<string, PluginDeclaration[] | undefined>).map(([kind, list]) => [
          kind,
          list?.map((p) => ({ ...p, path: path.resolve(root, p.path) })),
        ]),
      )
    : undefined;
  return { ...settings, ...(plugins ? { plugins } : {}), main: path.resolve(root, settings.main ?? "."), backend: { url: backendUrl } };
}
