#!/usr/bin/env node
/** The `pulumi-compute` command. */
import { parseArgs } from "node:util";
import { MissingPulumiError, assertPulumiLoadable } from "../peer";

const USAGE = `usage: pulumi-compute drift [--stack <name>] [--cwd <project dir>] [--json]

  drift   refresh-preview a stack and list managed fields changed outside Pulumi
          (exit 0: no drift, 2: drift, 1: error)`;

async function main(argv: string[]): Promise<number> {
  // The drift command drives the engine through @pulumi/pulumi (a peer dependency), loaded only once it is known to be there.
  try {
    assertPulumiLoadable();
  } catch (error) {
    if (!(error instanceof MissingPulumiError)) throw error;
    console.error(error.message);
    return 1; // EXIT.error, which lives beside the code that needs the SDK
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only once the SDK it needs is known to be there
  const { EXIT, runDrift } = require("./drift") as typeof import("./drift");
  const [command, ...rest] = argv;
  if (command !== "drift") {
    console.error(USAGE);
    return command === undefined || command === "--help" || command === "-h" ? EXIT.clean : EXIT.error;
  }
  let values: { stack?: string; cwd?: string; json?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: rest,
      options: {
        stack: { type: "string", short: "s" },
        cwd: { type: "string", short: "C" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return EXIT.error;
  }
  if (values.help) {
    console.log(USAGE);
    return EXIT.clean;
  }
  return runDrift({ cwd: values.cwd ?? process.cwd(), stack: values.stack, json: values.json ?? false });
}

main(process.argv.slice(2)).then((code) => process.exit(code));
