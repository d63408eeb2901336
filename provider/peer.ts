/**
 * `@pulumi/pulumi` is a peer dependency: the program, the Pulumi engine and this package must all
 * use the project's one copy (a second copy would register resources with an SDK the engine never
 * talks to). Without it the failures speak of something else — `Cannot find module` with a
 * require stack, or, from the engine, `could not read plugin […pulumi-resource-pulumi-nodejs]:
 * EOF` (the dynamic provider plugin looks for the SDK from the project directory and finds none).
 * These checks say in one line what to install instead.
 */
import * as path from "node:path";

/** The range of the peer dependency, as package.json declares it. */
export const PULUMI_PEER_RANGE = "^3.259.0";

/** The one-line error: what is missing, where, and what to run. */
export class MissingPulumiError extends Error {
  override name = "MissingPulumiError";
  constructor(directory: string) {
    super(
      `pulumi-compute needs @pulumi/pulumi installed in the project (${directory}): run \`npm install @pulumi/pulumi@${PULUMI_PEER_RANGE}\` there`,
    );
    // One line, as the user reads it: the engine and the shell print the stack otherwise.
    this.stack = `${this.name}: ${this.message}`;
  }
}

/** Whether `module` resolves from `directory` (through its node_modules and its parents'). */
function resolvesFrom(module: string, directory: string): boolean {
  try {
    require.resolve(module, { paths: [directory] });
    return true;
  } catch {
    return false;
  }
}

/** This package can load the SDK (the project's copy, through the peer dependency). */
export function assertPulumiLoadable(): void {
  if (!resolvesFrom("@pulumi/pulumi/package.json", __dirname)) throw new MissingPulumiError(projectOf(__dirname));
}

/**
 * The engine's dynamic provider plugin will find the SDK: it starts in the program's directory
 * and resolves `@pulumi/pulumi/cmd/dynamic-provider` from there.
 */
export function assertProviderPluginLoadable(directory = process.cwd()): void {
  if (!resolvesFrom("@pulumi/pulumi/cmd/dynamic-provider", directory)) throw new MissingPulumiError(directory);
}

/** The project folder holding an installed package: the parent of its node_modules, else the folder itself. */
function projectOf(directory: string): string {
  const parts = directory.split(path.sep);
  const index = parts.lastIndexOf("node_modules");
  return index > 0 ? parts.slice(0, index).join(path.sep) : directory;
}
