#!/usr/bin/env node
/** The `pulumi-compute` command. */
import { parseArgs, type ParseArgsOptionsConfig } from "node:util";
import { MissingPulumiError, assertPulumiLoadable } from "../launch/peer";
import { EXIT } from "./exit";
import { AREA_NAMES } from "./import/account";
import { DEFAULT_PARALLEL } from "./fleet-constants";
import { installedVersion } from "./version";

const DRIFT_USAGE = `usage: pulumi-compute drift [--stack <name>] [--cwd <project dir>] [--json]
       pulumi-compute drift --all | --stacks <a,b,…> [--parallel <n>] [--cwd <dir>] [--json] [--junit <file>]

  Refresh-preview a stack (or many) and list managed fields changed outside Pulumi
  (exit 0: no drift, 2: drift, 1: error; a stack another runner has locked is reported busy).
  A field under its resource's ignoreChanges is listed as ignored: not drift, exit code unchanged.

  -s, --stack <name>     the stack (default: the project's selected stack)
  -C, --cwd <dir>        the project directory, holding Pulumi.yaml (default: here); with --all or
                         --stacks, a project or a folder holding project folders
      --all              every stack of the backend, each refreshed from its project's folder
      --stacks <a,b,…>   these stacks (\`prod\`, \`app/prod\` or \`organization/app/prod\`)
      --parallel <n>     stacks checked at once with --all or --stacks (default: ${DEFAULT_PARALLEL})
      --json             the report as JSON
      --junit <file>     with --all or --stacks, also write a JUnit XML report, one test case per stack`;

const RECOVER_USAGE = `usage: pulumi-compute recover [--stack <name>] [--cwd <project dir>] [--yes] [--json]

  After a run that was interrupted (killed, cancelled, a machine gone): removes the stack's lock
  when the process holding it is gone from this host, finds each pending create's object by its
  natural key (reads only), and runs one \`pulumi refresh\` that adopts those objects, clears the
  creates that never landed, and settles pending updates and deletes. Several matches or a
  failing lookup are refused and named, never guessed. Then \`pulumi up\` finishes the run
  (exit 0: recovered or nothing to recover, 1: an error, a refusal, or the plan declined).

  -s, --stack <name>     the stack (default: the project's selected stack)
  -C, --cwd <dir>        the project directory, holding Pulumi.yaml (default: here)
  -y, --yes              carry out the plan without asking
      --json             the report as JSON`;

const IMPORT_USAGE = `usage: pulumi-compute import [--api-url <url>] [--token-env <name>] [--only <areas>]
                             [--label-filter <regex>] [--record-sets] [--out <dir>] [--stack <name>]

  Read an existing account and write a TypeScript Pulumi program (index.ts, Pulumi.yaml,
  package.json, tsconfig.json) whose first \`pulumi up\` adopts every object and changes nothing
  (exit 0: written, 1: bad input or the account could not be read; nothing is written then).

      --api-url <url>        API root including /v4 (default: $COMPUTE_API_URL, else the public API)
      --token-env <name>     environment variable holding the API token (default: COMPUTE_TOKEN);
                             the token is never written
      --only <areas>         comma-separated areas to import (default: all):
                             ${AREA_NAMES.join(", ")}
      --label-filter <regex> import only objects whose label matches (for a domain its name, for
                             reverse DNS the name, for an IPv6 range \`range-<address>\`);
                             subnets, records and devices follow their parent
      --record-sets          write each domain's records as one DomainRecordSet (one resource,
                             one listing per refresh; best for large zones) instead of one
                             DomainRecord per record
      --out <dir>            the project folder to create; must not exist or be empty
                             (default: ./compute-import)
      --stack <name>         the stack the printed next steps create (default: dev)
  -h, --help                 this text`;

const SCOPES_USAGE = `usage: pulumi-compute scopes [--stack <name>] [--cwd <project dir>] [--json]

  Prints the least-privilege OAuth scopes of a stack: what \`pulumi up\` and \`pulumi destroy\` need,
  and what \`pulumi preview\`, \`pulumi refresh\` and \`pulumi-compute drift\` need. They come from a
  preview of the stack (no writes): the resource kinds it plans for, the endpoints each kind's
  life uses, and the endpoints its program calls itself (data functions).

      --stack <name>      the stack (default: the project's selected stack)
      --cwd <dir>         the project directory (default: the working directory)
      --json              the report as JSON`;

/** A command: its line in the general usage, its own usage, the options it parses, and what it runs with their values. */
interface Command<T> {
  summary: string;
  usage: string;
  options: ParseArgsOptionsConfig;
  run: (values: T) => Promise<number>;
}

const command = <T>(c: Command<T>): Command<never> => c as Command<never>;

/** The options of a command about one project's stack: `--stack`, `--cwd`, `--json`. */
const STACK_OPTIONS: ParseArgsOptionsConfig = {
  stack: { type: "string", short: "s" },
  cwd: { type: "string", short: "C" },
  json: { type: "boolean" },
};

/** Every command, by its name: adding one is one entry here and its function below. */
const COMMANDS: Record<string, Command<never>> = {
  drift: command({
    summary: "list managed fields changed outside Pulumi (exit 0: none, 2: drift, 1: error)",
    usage: DRIFT_USAGE,
    options: {
      ...STACK_OPTIONS,
      all: { type: "boolean" },
      stacks: { type: "string" },
      parallel: { type: "string" },
      junit: { type: "string" },
    },
    run: drift,
  }),
  import: command({
    summary: "write a Pulumi program that adopts the objects of an existing account",
    usage: IMPORT_USAGE,
    options: {
      "api-url": { type: "string" },
      "token-env": { type: "string" },
      only: { type: "string" },
      "label-filter": { type: "string" },
      "record-sets": { type: "boolean" },
      out: { type: "string" },
      stack: { type: "string" },
    },
    run: importAccount,
  }),
  recover: command({
    summary: "bring a stack back after an interrupted run (then `pulumi up`)",
    usage: RECOVER_USAGE,
    options: { ...STACK_OPTIONS, yes: { type: "boolean", short: "y" } },
    run: recover,
  }),
  scopes: command({
    summary: "print the least-privilege OAuth scopes a stack's token needs",
    usage: SCOPES_USAGE,
    options: STACK_OPTIONS,
    run: scopes,
  }),
};

const USAGE = `usage: pulumi-compute <command> [options]

commands:
${Object.entries(COMMANDS)
  .map(([name, { summary }]) => `  ${name.padEnd(9)}${summary}`)
  .join("\n")}

\`pulumi-compute <command> --help\` describes a command's options; \`pulumi-compute --version\` prints the installed version.`;

type Parsed<T> = { values: T } | { code: number };

/** Parses a command's options; unknown options and `--help` end the command. */
function parse<T>(args: string[], options: ParseArgsOptionsConfig, usage: string): Parsed<T> {
  try {
    const { values } = parseArgs({ args, options: { ...options, help: { type: "boolean", short: "h" } } });
    if ((values as { help?: boolean }).help) {
      console.log(usage);
      return { code: EXIT.clean };
    }
    return { values: values as T };
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`);
    return { code: EXIT.error };
  }
}

/** The commands load @pulumi/pulumi (a peer dependency): when it is missing, one line says what to install. */
function pulumiMissing(): boolean {
  try {
    assertPulumiLoadable();
    return false;
  } catch (error) {
    if (!(error instanceof MissingPulumiError)) throw error;
    console.error(error.message);
    return true;
  }
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "--version" || name === "-v") {
    console.log(installedVersion());
    return EXIT.clean;
  }
  const chosen = name === undefined ? undefined : Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!chosen) {
    const help = name === undefined || name === "--help" || name === "-h";
    (help ? console.log : console.error)(USAGE);
    return help ? EXIT.clean : EXIT.error;
  }
  if (pulumiMissing()) return EXIT.error;
  const parsed = parse<never>(rest, chosen.options, chosen.usage);
  return "code" in parsed ? parsed.code : chosen.run(parsed.values);
}

async function scopes(values: { stack?: string; cwd?: string; json?: boolean }): Promise<number> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only once the SDK it needs is known to be there
  const { runScopes } = require("./scopes") as typeof import("./scopes");
  return runScopes({ cwd: values.cwd ?? process.cwd(), stack: values.stack, json: values.json ?? false });
}

async function drift(values: {
  stack?: string;
  cwd?: string;
  json?: boolean;
  all?: boolean;
  stacks?: string;
  parallel?: string;
  junit?: string;
}): Promise<number> {
  const cwd = values.cwd ?? process.cwd();
  const json = values.json ?? false;
  const fleet = values.all || values.stacks !== undefined;
  const misuse =
    values.all && values.stacks !== undefined
      ? "--all and --stacks exclude each other"
      : fleet && values.stack !== undefined
        ? "--stack names one stack; with --all or --stacks leave it out"
        : !fleet && (values.parallel !== undefined || values.junit !== undefined)
          ? "--parallel and --junit go with --all or --stacks"
          : undefined;
  if (misuse) {
    console.error(`${misuse}\n\n${DRIFT_USAGE}`);
    return EXIT.error;
  }
  if (fleet) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only once the SDK it needs is known to be there
    const { runFleetDrift } = require("./fleet") as typeof import("./fleet");
    const stacks = values.stacks
      ?.split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    return runFleetDrift({ cwd, stacks, parallel: Number(values.parallel ?? DEFAULT_PARALLEL), json, junit: values.junit });
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only once the SDK it needs is known to be there
  const { runDrift } = require("./drift") as typeof import("./drift");
  return runDrift({ cwd, stack: values.stack, json });
}

async function recover(values: { stack?: string; cwd?: string; yes?: boolean; json?: boolean }): Promise<number> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only once the SDK it needs is known to be there
  const { runRecover } = require("./recover") as typeof import("./recover");
  return runRecover({ cwd: values.cwd ?? process.cwd(), stack: values.stack, yes: values.yes ?? false, json: values.json ?? false });
}

async function importAccount(values: {
  "api-url"?: string;
  "token-env"?: string;
  only?: string;
  "label-filter"?: string;
  "record-sets"?: boolean;
  out?: string;
  stack?: string;
}): Promise<number> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only once the SDK it needs is known to be there
  const { runImport } = require("./import/command") as typeof import("./import/command");
  return runImport({
    apiUrl: values["api-url"],
    tokenEnv: values["token-env"],
    only: values.only?.split(",").map((s) => s.trim()),
    labelFilter: values["label-filter"],
    recordSets: values["record-sets"] ?? false,
    out: values.out ?? "compute-import",
    stack: values.stack,
  });
}

main(process.argv.slice(2)).then((code) => process.exit(code));
