/**
 * Child processes for end-to-end tests: the demo, the `pulumi` CLI, `pulumi-compute`, npm.
 * Always asynchronous: an emulator in the test process must keep answering while they run, and a
 * synchronous spawn would block it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";

export interface ProcessResult {
  code: number | null;
  /** stdout and stderr, interleaved as they came. */
  out: string;
  stdout: string;
}

export interface ProcessOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Killed (SIGKILL) after this long; default 240 s. */
  timeoutMs?: number;
}

export function runProcess(command: string, args: string[], options: ProcessOptions = {}): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env });
    let out = "";
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk;
      stdout += chunk;
    });
    child.stderr.on("data", (chunk: Buffer) => (out += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 240_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, out, stdout });
    });
  });
}

/** Starts a long-running process and resolves once its output matches `ready`. */
export function startProcess(
  command: string,
  args: string[],
  ready: RegExp,
  options: ProcessOptions = {},
): Promise<{ child: ChildProcess; output: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env });
    let out = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${command} did not become ready:\n${out}`));
    }, options.timeoutMs ?? 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk;
      if (ready.test(out)) {
        clearTimeout(timer);
        resolve({ child, output: () => out });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited ${code} before it was ready:\n${out}`));
    });
  });
}

/** Every process below `pid` (plugins start in process groups of their own, so a group kill misses them). */
export function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const walk = (p: number) => {
    for (const child of parents.get(p) ?? []) {
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}

/** Whether `pid` runs (a zombie does not). */
export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]![0] !== "Z";
  } catch {
    return false;
  }
};

/**
 * Kills `pid` and every process below it with SIGKILL, each process group whole, as a cancelled CI
 * runner dies; returns the processes it killed.
 */
export function killTree(pid: number): number[] {
  const tree = [pid, ...descendants(pid)];
  for (const member of tree) {
    for (const target of [-member, member]) {
      try {
        process.kill(target, "SIGKILL");
      } catch {
        // not a group leader, or gone
      }
    }
  }
  return tree;
}
