#!/usr/bin/env node
/**
 * `compute-emulator`: runs the emulator until SIGINT/SIGTERM.
 *   compute-emulator [--port 4000] [--host 127.0.0.1] [--token HEX] [--time-scale 300] [--state-file state.json] [--seed 1] [--rate-limits] [--strict] [--request-log-size 10000] [--demo-environment] [--log]
 *   compute-emulator --version
 * Prints the API URL, the control URL and the token (a local test credential, printed on purpose),
 * and how fast emulated time runs: `CLI_TIME_SCALE`× unless `--time-scale` says otherwise.
 */
// Before anything else loads: the V8 settings of the emulator's own process (see
// applyStandaloneV8Flags for why). Loading the server's modules allocates enough to grow the young
// generation already, so they must be set first; only as a command, since a test or program that
// imports `runCli` owns its process.
import { applyStandaloneV8Flags } from "./core/process-memory";
if (require.main === module) applyStandaloneV8Flags();
import { parseArgs } from "node:util";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "./index";
import { demoEnvironmentConfig, findDemoEnvironment, seedDemoEnvironment } from "./control/demo-environment";
import { PRIMARY_ACCOUNT } from "./core/state";
import { DEFAULT_RATE_LIMITS } from "./core/rate-limit";
import { DATABASE_DURATIONS } from "./services/databases/machine";
import { UPLOAD_WINDOW_MS } from "./services/images/store";
import { SDK_VERSION } from "../sdk/version";

/**
 * The command's time scale unless `--time-scale` is given: fast, as local emulators are, so a MySQL
 * database provisions in 3–6 s instead of 15–30 minutes. `startEmulator` in process keeps real time
 * (1) unless told: tests set their own scale. At this scale the image upload window (24 emulated
 * hours) still gives a real 4.8 minutes, which a 5 GB local upload needs a fraction of.
 */
export const CLI_TIME_SCALE = 300;

/** The emulator's options, and what the command does once it runs. */
export interface CliOptions extends EmulatorOptions {
  /** Seed what the examples expect (instances, a nodebalancer, a disk) and print their config. */
  demoEnvironment?: boolean;
  /** Print the package's version and start nothing (`--version`, `-v`). */
  version?: boolean;
}

export const USAGE = `Usage: compute-emulator [options]
  --port <n>          port to listen on (default 0: a random free port)
  --host <addr>       interface to listen on (default 127.0.0.1)
  --token <token>     the primary account's unrestricted token (default: from the state file, else random)
  --time-scale <x>    emulated time runs x times faster than real time (default ${CLI_TIME_SCALE}: a MySQL
                      database provisions in seconds); 1 for the API's real timing, 0 to stop the
                      clock (it then moves only by POST /__emulator/clock {advanceMs})
  --state-file <path> load state from this file and save it after every change
  --seed <n>          seed of the fault injector's random numbers (default 1)
  --rate-limits       enforce the API's documented rate limits (429 with Retry-After); their windows
                      run on the emulated clock, so add --time-scale 1 to meet them as documented
  --strict            refuse body fields an endpoint does not know (400 Unknown field),
                      instead of ignoring them as the API does
  --request-log-size <n>
                      how many of the most recent API requests the request log keeps
                      (GET /__emulator/requests; default 10000, 0 keeps none)
  --demo-environment  seed what the examples expect (compute instances, a nodebalancer, a disk)
                      and print the \`pulumi config set\` lines for their ids
  --log               log every request
  -v, --version       print the version of pulumi-compute this emulator comes with
  -h, --help          show this text`;

function number(name: string, text: string | undefined, check: (n: number) => boolean): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (text.trim() === "" || !Number.isFinite(n) || !check(n)) throw new Error(`--${name}: invalid value ${JSON.stringify(text)}`);
  return n;
}

/** Parses the command line into emulator options; `undefined` means "print usage and stop". */
export function parseCliArgs(argv: string[]): CliOptions | undefined {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      port: { type: "string" },
      host: { type: "string" },
      token: { type: "string" },
      "time-scale": { type: "string" },
      "state-file": { type: "string" },
      seed: { type: "string" },
      log: { type: "boolean" },
      "rate-limits": { type: "boolean" },
      strict: { type: "boolean" },
      "request-log-size": { type: "string" },
      "demo-environment": { type: "boolean" },
      version: { type: "boolean", short: "v" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return undefined;
  if (values.version) return { version: true };
  const options: CliOptions = {};
  const port = number("port", values.port, (n) => Number.isInteger(n) && n >= 0 && n <= 65535);
  const timeScale = number("time-scale", values["time-scale"], (n) => n >= 0);
  const seed = number("seed", values.seed, Number.isInteger);
  const requestLogSize = number("request-log-size", values["request-log-size"], (n) => Number.isSafeInteger(n) && n >= 0);
  if (port !== undefined) options.port = port;
  if (timeScale !== undefined) options.timeScale = timeScale;
  if (seed !== undefined) options.seed = seed;
  if (requestLogSize !== undefined) options.requestLogSize = requestLogSize;
  if (values["rate-limits"]) options.rateLimits = true;
  if (values.strict) options.strict = true;
  if (values.host !== undefined) options.host = values.host;
  if (values.token !== undefined) options.token = values.token;
  if (values["state-file"] !== undefined) options.stateFile = values["state-file"];
  if (values.log) options.logger = true;
  if (values["demo-environment"]) options.demoEnvironment = true;
  return options;
}

/**
 * Starts the emulator for the CLI and (unless told not to, as tests do) closes it cleanly and
 * exits on SIGINT/SIGTERM. Resolves once it is listening.
 */
export async function runCli(
  argv: string[],
  out: (line: string) => void = console.log,
  { handleSignals = true }: { handleSignals?: boolean } = {},
): Promise<RunningEmulator | undefined> {
  const options = parseCliArgs(argv);
  if (!options) {
    out(USAGE);
    return undefined;
  }
  if (options.version) {
    out(SDK_VERSION);
    return undefined;
  }
  const { demoEnvironment, version: _version, ...emulatorOptions } = options;
  const running = await startEmulator({ timeScale: CLI_TIME_SCALE, ...emulatorOptions });
  out(`compute-emulator listening`);
  out(`  API:     ${running.url}`);
  out(`  control: ${running.controlUrl}`);
  out(`  token:   ${running.token}`);
  for (const line of timeLines(running.emulator.clock.scale, Boolean(options.rateLimits))) out(`  ${line}`);
  if (running.emulator.strict) out(`  ${STRICT_LINE}`);
  if (demoEnvironment) printDemoEnvironment(running, out);
  if (!handleSignals) return running;
  let closing = false;
  const stop = (why: string) => {
    if (closing) return;
    closing = true;
    out(`${why}, closing`);
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", () => stop("received SIGINT"));
  process.once("SIGTERM", () => stop("received SIGTERM"));
  if (startedByNpm()) followParent(() => stop("npm, which started it, has ended"));
  return running;
}

/**
 * Whether `npx`, `npm exec` or `npm run` started this process: npm runs a package's command as its
 * child and, stopped with a signal (`kill %1` of `npx compute-emulator &`), ends without passing
 * the signal on, which would leave the emulator serving on its port with nothing to stop it.
 */
export function startedByNpm(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.npm_command !== undefined;
}

/** How often the process checks that its parent is still there. */
const PARENT_CHECK_MS = 250;

/** The process that started this one, as it was when this module loaded. */
const STARTED_BY = process.ppid;

/**
 * Calls `gone` once the process that started this one has ended (this one is then handed to
 * another parent, and `process.ppid` changes). The check never keeps the process alive.
 */
export function followParent(gone: () => void, parent = STARTED_BY): void {
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    gone();
  }, PARENT_CHECK_MS);
  timer.unref();
}

/** The banner's line when strict mode is on, which answers differently from the API. */
export const STRICT_LINE =
  "strict:  body fields an endpoint does not know are refused (400 Unknown field), where the API ignores them (--strict or COMPUTE_EMULATOR_STRICT=1)";

/** `4.8 min`, `3 s`, `0.2 s`: a real duration for the banner. */
function realDuration(ms: number): string {
  const round = (n: number) => String(Number(n.toPrecision(2)));
  if (ms >= 3_600_000) return `${round(ms / 3_600_000)} h`;
  if (ms >= 60_000) return `${round(ms / 60_000)} min`;
  return `${round(ms / 1000)} s`;
}

/**
 * The banner's lines about time: how fast it runs, what that means for a database, and how to get
 * the other timing; with rate limits enforced at a scale other than 1, that their windows shrink.
 */
export function timeLines(scale: number, rateLimits = false): string[] {
  const { provisionMinMs: min, provisionMaxMs: max } = DATABASE_DURATIONS;
  if (scale === 0) return ["time:    stopped (--time-scale 0): it moves only by POST /__emulator/clock {advanceMs}"];
  const [from, to] = [realDuration(min / scale), realDuration(max / scale)];
  const provisions = from.split(" ")[1] === to.split(" ")[1] ? `${from.split(" ")[0]}–${to}` : `${from}–${to}`;
  const lines =
    scale === 1
      ? [
          `time:    real time: a MySQL database provisions in ${provisions}; --time-scale ${CLI_TIME_SCALE} runs it ${CLI_TIME_SCALE}× faster`,
        ]
      : [
          `time:    runs ${scale}× faster than real time: a MySQL database provisions in ~${provisions}, an image upload URL`,
          `         is valid for ${realDuration(UPLOAD_WINDOW_MS / scale)}; --time-scale 1 for real timing`,
        ];
  if (rateLimits && scale !== 1) {
    const general = DEFAULT_RATE_LIMITS.general;
    lines.push(
      `rate limits: windows run on the emulated clock (${general.limit} requests per ${realDuration(general.windowMs / scale)} real); --time-scale 1 for the documented windows`,
    );
  }
  return lines;
}

/**
 * Seeds the examples' environment, unless a state file brought it back already, and prints the
 * config that points the examples at it.
 */
function printDemoEnvironment(running: RunningEmulator, out: (line: string) => void): void {
  const restored = findDemoEnvironment(running.emulator.state.accounts[PRIMARY_ACCOUNT]!);
  const environment = restored ?? seedDemoEnvironment(running.control);
  out(
    `  demo environment${restored ? " (from the state file)" : ""}: compute instances ${environment.computeIds.join(", ")}, nodebalancer ${environment.nodebalancerId}, disk ${environment.diskId}`,
  );
  out(`  for the examples, in the project folder:`);
  out(`    pulumi config set compute:apiUrl ${running.url}`);
  out(`    pulumi config set --secret compute:token ${running.token}`);
  for (const [key, value] of Object.entries(demoEnvironmentConfig(environment))) out(`    pulumi config set ${key} ${value}`);
}

if (require.main === module) {
  runCli(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    console.error(USAGE);
    process.exit(2);
  });
}
