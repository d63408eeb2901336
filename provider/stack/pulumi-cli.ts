/**
 * The Pulumi CLI this process drives stacks with: where it is (the setup's build, else the one on
 * `PATH`) and the Automation API's handle on it. Used by the demo, the tests, the CLI's commands
 * and `emulatedStack`.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { PulumiCommand } from "@pulumi/pulumi/automation";

/** The directory holding `pulumi` (and `pulumi-resource-pulumi-nodejs` beside it). */
export function engineBin(): string {
  const fromSetup = process.env.PULUMI_COMPUTE_ENGINE_BIN;
  if (fromSetup && fs.existsSync(path.join(fromSetup, "pulumi"))) return fromSetup;
  try {
    return path.dirname(execFileSync("sh", ["-c", "command -v pulumi"], { encoding: "utf8" }).trim());
  } catch {
    throw new Error("the Pulumi CLI is not on PATH: run through `npm test` / `npm run demo`, which build it, or install it");
  }
}

const commands = new Map<string, Promise<PulumiCommand>>();

/** The Automation API's handle on that CLI: one per CLI for the life of the process (getting one runs `pulumi version`). */
export function pulumiCommand(): Promise<PulumiCommand> {
  const bin = engineBin();
  let command = commands.get(bin);
  if (!command) {
    command = handleOn(bin);
    commands.set(bin, command);
    command.catch(() => commands.delete(bin));
  }
  return command;
}

/** What the pinned `@pulumi/pulumi` builds its handle from (internal to it; checked before use, and by a test). */
interface HandleParts {
  parseAndValidatePulumiVersion(min: unknown, version: string, optOut: boolean): unknown;
  minimumVersion: unknown;
}

function handleParts(): HandleParts | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- internal modules of the SDK (its types say nothing): absent, `get` makes the handle
    const { parseAndValidatePulumiVersion } = require("@pulumi/pulumi/automation/cmd") as Partial<HandleParts>;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
    const { minimumVersion } = require("@pulumi/pulumi/automation/minimumVersion") as Partial<HandleParts>;
    return typeof parseAndValidatePulumiVersion === "function" && minimumVersion
      ? { parseAndValidatePulumiVersion, minimumVersion }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Loaded with this module: the same copy of the Automation API as the `PulumiCommand` above. */
const HANDLE_PARTS = handleParts();

/**
 * The handle `PulumiCommand.get({ root })` makes, with its `pulumi version` run under a Pulumi home
 * of its own: the CLI writes a log of every run under its home, `~/.pulumi/logs` when none is set,
 * and `get` runs it in this process's environment, so a user's test that asked only for an
 * emulated stack left a log in their home. The version is checked as `get` checks it (the same
 * minimum, `PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK` honoured). When the pinned package no longer
 * builds its handle from these parts, `get` makes it.
 */
async function handleOn(bin: string): Promise<PulumiCommand> {
  // `get` takes the folder above `bin/pulumi`, Pulumi's installer's layout; the `pulumi` found may
  // sit in any folder (a release tarball unpacks flat), so the handle names it where it is.
  const root = path.dirname(bin);
  const parts = HANDLE_PARTS;
  if (!parts) return PulumiCommand.get({ root });
  const command = path.resolve(bin, "pulumi");
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-compute-version-"));
  let printed: string;
  try {
    const env = { ...process.env, PULUMI_HOME: home, PULUMI_SKIP_UPDATE_CHECK: "true" };
    printed = (await promisify(execFile)(command, ["version"], { env, encoding: "utf8" })).stdout.trim();
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
  const optOut = !!process.env.PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK;
  const version = parts.parseAndValidatePulumiVersion(parts.minimumVersion, printed, optOut);
  const handle = Reflect.construct(PulumiCommand, [command, version]) as PulumiCommand;
  return handle.command === command && handle.version === version ? handle : PulumiCommand.get({ root });
}
