/**
 * A ready stack of a `linkedProject` (test/support/user-shell.ts), for end-to-end tests that run
 * the `pulumi` CLI in a project folder as a user does: an emulator in the test's process and a
 * client of it, a temporary folder holding the project and its `file://` backend, and the stack
 * `dev` made with the emulator's URL and token in its config. `close` ends them in order.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { runProcess, type ProcessResult } from "./process";
import { expectExit, linkedProject, linkedProjectEnv } from "./user-shell";

export interface LinkedStack {
  emulator: RunningEmulator;
  client: ComputeClient;
  /** The temporary folder: `project/` and the backend's `state/`. */
  base: string;
  project: string;
  /** The environment `pulumi` runs with in the project (`linkedProjectEnv`). */
  env: NodeJS.ProcessEnv;
  /** `pulumi <args>` (split on spaces) in the project, with `extra` in its environment. */
  pulumi(args: string, extra?: NodeJS.ProcessEnv): Promise<ProcessResult>;
  /** The state file of the stack, as text. */
  stateText(): string;
  close(): Promise<void>;
}

/** Makes the project `name` holding `program` (`index.js`), and its stack `dev`; `timeScale` speeds the emulator's clock. */
export async function linkedStack(options: { name: string; program: string; timeScale?: number }): Promise<LinkedStack> {
  const emulator = await startEmulator({ port: 0, timeScale: options.timeScale });
  const client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  const base = fs.mkdtempSync(path.join(os.tmpdir(), `pc-${options.name}-`));
  const project = path.join(base, "project");
  fs.mkdirSync(path.join(base, "state"));
  linkedProject(project, { name: options.name, backendUrl: `file://${base}/state`, program: options.program });
  const env = linkedProjectEnv(base);
  const pulumi = (args: string, extra: NodeJS.ProcessEnv = {}) =>
    runProcess("pulumi", args.split(" "), { cwd: project, env: { ...env, ...extra }, timeoutMs: 300_000 });
  const stack: LinkedStack = {
    emulator,
    client,
    base,
    project,
    env,
    pulumi,
    stateText: () => fs.readFileSync(path.join(base, `state/.pulumi/stacks/${options.name}/dev.json`), "utf8"),
    close: async () => {
      await client.close();
      await emulator.close();
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
  expectExit(await pulumi("stack init dev"), 0);
  expectExit(await pulumi(`config set compute:apiUrl ${emulator.url}`), 0);
  expectExit(await pulumi(`config set --secret compute:token ${emulator.token}`), 0);
  return stack;
}
