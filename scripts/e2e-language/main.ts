/**
 * An end-to-end run of the README's program in Python or Go with a real Pulumi language host
 * (`scripts/e2e-language.sh`, which sets up the toolchain and runs this). CI cannot build the
 * Python and Go hosts here (the Go module proxy refuses them), so `npm test` checks those programs
 * under mocks only; whoever has a host runs this to see the whole path: the project's engine, the
 * host, the package's provider plugin named in the project's Pulumi.yaml, and the emulator over
 * HTTP. Steps: preview (plans the creates, sends no write), up (creates them; the record points at
 * the database's primary host, the app's at the app instance, running behind its firewall at its
 * VPC address), a change of the program (one update), refresh (no drift), a preview with nothing
 * to do, destroy (deletes all; the emulator ends empty), and a preview of bad input (refused,
 * naming the resource and field, with no write). Everything goes into one temporary folder
 * (project, virtual environment, state, PULUMI_HOME), removed at the end; pip's
 * downloads and Go's builds are cached in the project's cache.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { runProcess, type ProcessResult } from "../../test/support/process";
import { writesSince as writesSinceMark } from "../../test/support/requests";
import { REPO_ROOT, goProgram, pinnedPythonPulumi, pythonProgram, writeGoProject } from "./projects";

const USAGE = `usage: scripts/e2e-language.sh [--hosts DIR] [--keep] [python] [go]
  DIR (or PULUMI_COMPUTE_LANGUAGE_HOSTS) holds pulumi-language-python (with pulumi-language-python-exec
  beside it, as a Pulumi installation has them) and/or pulumi-language-go; without a language, each
  whose host DIR holds runs.`;

/** A language: its host's files, and how its project is written. */
interface Language {
  /** The files the host folder must hold. */
  hostFiles: string[];
  /** Pulumi.yaml's runtime entry. */
  runtime: string;
  /** Writes the program and what it needs into `project`; the program file's name. */
  prepare(project: string, work: string, env: NodeJS.ProcessEnv): Promise<string>;
}

const LANGUAGES: Record<string, Language> = {
  python: {
    hostFiles: ["pulumi-language-python", "pulumi-language-python-exec"],
    runtime: "runtime:\n  name: python\n  options:\n    toolchain: pip\n    virtualenv: venv\n",
    async prepare(project, work, env) {
      // The SDK's wheel, built from a copy (setuptools writes build/ beside its source), with Pulumi's
      // Python SDK at the tests' pin, into the project's virtual environment.
      const source = path.join(work, "sdk-python");
      fs.cpSync(path.join(REPO_ROOT, "sdks", "python"), source, {
        recursive: true,
        filter: (p) => !/__pycache__|\.egg-info|[/\\](build|dist|tests)$/.test(p),
      });
      await must("python3", ["-m", "venv", path.join(project, "venv")], { cwd: work, env });
      const pip = path.join(project, "venv", "bin", "pip");
      const wheels = path.join(work, "wheels");
      await must(pip, ["wheel", "--quiet", "--no-deps", "--wheel-dir", wheels, source], { cwd: work, env });
      const wheel = fs.readdirSync(wheels).find((f) => f.endsWith(".whl"))!;
      await must(pip, ["install", "--quiet", path.join(wheels, wheel), `pulumi==${pinnedPythonPulumi()}`], { cwd: work, env });
      fs.writeFileSync(path.join(project, "__main__.py"), pythonProgram());
      return "__main__.py";
    },
  },
  go: {
    hostFiles: ["pulumi-language-go"],
    runtime: "runtime: go\n",
    async prepare(project) {
      writeGoProject(project, goProgram());
      return "main.go";
    },
  },
};

/** The program's resources, as the engine names them in a plan. */
const RESOURCES = [
  "Vpc app",
  "VpcSubnet data",
  "VpcSubnet web",
  "Firewall app-fw",
  "Instance app-1",
  "MysqlDatabase db",
  "Domain zone",
  "DomainRecord db-name",
  "DomainRecord app-1",
];
/** The stack and its nine resources. */
const COUNT = RESOURCES.length + 1;

class Failure extends Error {}

async function must(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<ProcessResult> {
  const result = await runProcess(command, args, { ...options, timeoutMs: 15 * 60_000 });
  if (result.code !== 0) throw new Failure(`${command} ${args.join(" ")} failed (exit ${result.code}):\n${result.out}`);
  return result;
}

/** The lines of a run's output that say what it did: its distinct warnings and errors, the `Resources:` block, the duration. */
function summary(out: string): string[] {
  const lines = out.split("\n");
  const notes = [...new Set(lines.map((l) => l.trim()).filter((l) => /^(warning|error):/.test(l)))];
  const start = lines.findIndex((l) => /^Resources:/.test(l));
  if (start === -1) return notes;
  const block: string[] = [];
  for (const line of lines.slice(start)) {
    if (block.length > 0 && line.trim() === "" && !/^Resources:/.test(block[block.length - 1]!)) break;
    if (line.trim() !== "") block.push(line.trim());
  }
  const duration = lines.find((l) => /^Duration:/.test(l));
  return [...notes, ...block, ...(duration ? [duration.trim()] : [])];
}

interface StepRecord {
  name: string;
  seconds: number;
}

async function runLanguage(name: string, language: Language, hosts: string, keep: boolean): Promise<StepRecord[]> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `pulumi-compute-e2e-${name}-`));
  const project = path.join(work, "project");
  fs.mkdirSync(project);
  const cache = process.env.PULUMI_COMPUTE_CACHE ?? path.join(os.homedir(), ".cache", "pulumi-compute");
  const env: NodeJS.ProcessEnv = { ...process.env };
  // No credentials, stack configuration or backend of the caller's.
  for (const key of Object.keys(env)) {
    if (/^COMPUTE_(TOKEN|API_URL)$|^PULUMI_(CONFIG|CONFIG_PASSPHRASE_FILE|ACCESS_TOKEN|BACKEND_URL|HOME)$/.test(key)) delete env[key];
  }
  Object.assign(env, {
    // The project's engine first; the given hosts after it (a Pulumi installation's folder may hold a `pulumi` of its own).
    PATH: [process.env.PULUMI_COMPUTE_ENGINE_BIN, hosts, process.env.PATH].filter(Boolean).join(path.delimiter),
    PULUMI_HOME: path.join(work, "pulumi-home"),
    PULUMI_BACKEND_URL: `file://${path.join(work, "state")}`,
    PULUMI_CONFIG_PASSPHRASE: "e2e-language",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PIP_CACHE_DIR: path.join(cache, "pip"),
    // The Go program's builds; its modules come from Go's module cache, as the Go SDK's tests' do.
    GOCACHE: path.join(cache, "go-build"),
    PIP_DISABLE_PIP_VERSION_CHECK: "1",
    PYTHONDONTWRITEBYTECODE: "1",
  });
  fs.mkdirSync(path.join(work, "state"));

  const emulator: RunningEmulator = await startEmulator({ port: 0, timeScale: 600 });
  const client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  const records: StepRecord[] = [];
  const writesSince = (mark: number) => writesSinceMark(emulator, mark);

  /** Runs `pulumi <args>` in the project, prints what it showed, and fails on any of `checks`' complaints. */
  const step = async (
    label: string,
    args: string[],
    checks: (result: ProcessResult) => Promise<string[]> | string[],
    { fails = false }: { fails?: boolean } = {},
  ) => {
    const started = Date.now();
    const result = await runProcess("pulumi", [...args, "--non-interactive"], { cwd: project, env, timeoutMs: 15 * 60_000 });
    const seconds = (Date.now() - started) / 1000;
    const shown = summary(result.out);
    console.log(`== ${name}: ${label} (pulumi ${args.join(" ")}): ${seconds.toFixed(1)} s`);
    for (const line of shown) console.log(`   ${line}`);
    const failures = (result.code === 0) === fails ? [`exit code ${result.code}`] : await checks(result);
    if (failures.length > 0) {
      throw new Failure(`${name}: ${label} did not show what it should:\n- ${failures.join("\n- ")}\nits output:\n${result.out}`);
    }
    records.push({ name: label, seconds });
    return result;
  };
  const expectText = (out: string, pattern: RegExp, what: string): string[] => (pattern.test(out) ? [] : [`${what} (${pattern})`]);

  try {
    console.log(`== ${name}: preparing the project in ${project}`);
    const started = Date.now();
    const programFile = await language.prepare(project, work, env);
    fs.writeFileSync(
      path.join(project, "Pulumi.yaml"),
      `name: e2e-${name}\n${language.runtime}plugins:\n  providers:\n    - name: compute\n      path: ${path.join(REPO_ROOT, "plugins")}\n`,
    );
    console.log(`   ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await must("pulumi", ["stack", "init", "dev", "--non-interactive"], { cwd: project, env });
    await must("pulumi", ["config", "set", "compute:apiUrl", emulator.url], { cwd: project, env });
    await must("pulumi", ["config", "set", "--secret", "compute:token", emulator.token], { cwd: project, env });

    let mark = emulator.control.listRequests().length;
    await step("preview", ["preview"], (r) => [
      ...RESOURCES.flatMap((kind) => expectText(r.out, new RegExp(`\\+ +compute:index:${kind} +create`), `plans ${kind}`)),
      ...expectText(r.out, new RegExp(`\\+ ${COUNT} to create`), `plans ${COUNT} creates`),
      ...writesSince(mark).map((w) => `the preview sent a write: ${w}`),
    ]);

    await step("up", ["up", "--yes", "--skip-preview"], async (r) => {
      const failures = expectText(r.out, new RegExp(`\\+ ${COUNT} created`), `creates ${COUNT}`);
      const outputs = JSON.parse((await must("pulumi", ["stack", "output", "--json"], { cwd: project, env })).stdout) as Record<
        string,
        unknown
      >;
      const [db] = await client.databases.mysql.listAll({ filter: { label: "app-db" } });
      const [zone] = await client.domains.listAll({ filter: { domain: "app.example" } });
      const [vpc] = await client.vpcs.listAll({ filter: { label: "app-net" } });
      if (!db || !zone || !vpc) return [...failures, "the API lacks the VPC, the database or the domain"];
      const subnets = await client.vpcs.subnets.listAll(vpc.id);
      const record = (await client.domains.records.listAll(zone.id)).find((rec) => rec.name === "db");
      const expected = { dbHost: db.hosts.primary, dbPort: db.port, dbPassword: "[secret]" };
      const same = Object.keys(outputs).length === 3 && Object.entries(expected).every(([key, value]) => outputs[key] === value);
      if (!same) failures.push(`outputs ${JSON.stringify(outputs)}, the API's ${JSON.stringify(expected)}`);
      if (record?.target !== db.hosts.primary)
        failures.push(`the record's target ${record?.target}, the database's primary host ${db.hosts.primary}`);
      const ipv4 = subnets.find((s) => s.label === "data")?.ipv4;
      if (!ipv4 || !db.allow_list.includes(ipv4))
        failures.push(`the database's allow list ${JSON.stringify(db.allow_list)} lacks the subnet's ${ipv4}`);
      // The app: running behind its firewall, its A record at its public address, its VPC address on the allow list.
      const [app] = await client.computes.instances.listAll({ filter: { label: "app-1" } });
      const appRecord = (await client.domains.records.listAll(zone.id)).find((rec) => rec.name === "app-1");
      if (app?.status !== "running") failures.push(`the app instance is ${app ? app.status : "missing"}, not running`);
      else if (appRecord?.target !== app.ipv4[0])
        failures.push(`the app's record targets ${appRecord?.target}, the app is at ${app.ipv4[0]}`);
      if (!db.allow_list.includes("10.0.1.11"))
        failures.push(`the database's allow list ${JSON.stringify(db.allow_list)} lacks the app's VPC address 10.0.1.11`);
      // Behind its firewall, at the VPC address the program names, in the web subnet.
      const [firewall] = (await client.networking.firewalls.listAll()).filter((f) => f.label === "app-fw");
      const devices = firewall ? (await client.networking.firewalls.devices.listAll(firewall.id)).map((d) => d.entity.id) : [];
      if (!app || !devices.includes(app.id)) failures.push(`the firewall app-fw guards ${JSON.stringify(devices)}, not the app`);
      const vpcIps = app ? (await client.computes.instances.ips(app.id)).ipv4.vpc : [];
      const web = subnets.find((s) => s.label === "web");
      if (!vpcIps.some((ip) => ip.address === "10.0.1.11" && ip.subnet_id === web?.id))
        failures.push(`the app's VPC addresses ${JSON.stringify(vpcIps.map((ip) => ip.address))} lack 10.0.1.11 in the web subnet`);
      const state = fs.readFileSync(path.join(work, "state", ".pulumi", "stacks", `e2e-${name}`, "dev.json"), "utf8");
      if (state.includes(emulator.token)) failures.push("the token is in the state");
      const { password } = await client.databases.mysql.credentials(db.id);
      if (state.includes(password)) failures.push("the database's root password is in the state in plain text");
      const shown = (await must("pulumi", ["stack", "output", "dbPassword", "--show-secrets"], { cwd: project, env })).stdout.trim();
      if (shown !== password) failures.push("the secret output dbPassword is not the API's root password");
      console.log(
        `   outputs ${JSON.stringify(outputs)}; the record: db CNAME ${record?.target}; allow list ${JSON.stringify(db.allow_list)}`,
      );
      console.log(
        `   the app: ${app?.status}, app-1 A ${appRecord?.target}, VPC address ${vpcIps.map((ip) => ip.address).join(", ")}, ` +
          `firewall app-fw on ${devices.length} device(s)`,
      );
      return failures;
    });

    // The change: the VPC's label in the program, an update in place.
    const file = path.join(project, programFile);
    const program = fs.readFileSync(file, "utf8");
    if (program.split('"app-net"').length !== 2) throw new Failure(`${programFile} does not name the label "app-net" once`);
    fs.writeFileSync(file, program.replace('"app-net"', '"app-net-2"'));
    await step("a change", ["up", "--yes", "--skip-preview", "--diff"], async (r) => {
      const [vpc] = await client.vpcs.listAll();
      return [
        ...expectText(r.out, /~ label: "app-net" => "app-net-2"/, "shows the label's change"),
        ...expectText(r.out, /~ 1 updated/, "updates one"),
        ...expectText(r.out, new RegExp(`${COUNT - 1} unchanged`), `leaves ${COUNT - 1} unchanged`),
        ...(vpc?.label === "app-net-2" ? [] : [`the API's VPC label is ${vpc?.label}`]),
      ];
    });

    mark = emulator.control.listRequests().length;
    await step("refresh", ["refresh", "--yes", "--skip-preview", "--expect-no-changes"], (r) => [
      ...expectText(r.out, new RegExp(`${COUNT} unchanged`), `finds all ${COUNT} unchanged`),
      ...writesSince(mark).map((w) => `the refresh sent a write: ${w}`),
    ]);

    // No perpetual diff: the program, as changed, against what refresh read.
    mark = emulator.control.listRequests().length;
    await step("an empty preview", ["preview", "--expect-no-changes"], (r) => [
      ...expectText(r.out, new RegExp(`${COUNT} unchanged`), `finds all ${COUNT} unchanged`),
      ...writesSince(mark).map((w) => `the preview sent a write: ${w}`),
    ]);

    await step("destroy", ["destroy", "--yes", "--skip-preview"], async (r) => {
      const left = {
        vpcs: (await client.vpcs.listAll()).length,
        databases: (await client.databases.instances.listAll()).length,
        domains: (await client.domains.listAll()).length,
        apps: (await client.computes.instances.listAll({ filter: { label: "app-1" } })).length,
        firewalls: (await client.networking.firewalls.listAll()).filter((f) => f.label === "app-fw").length,
      };
      console.log(`   the emulator holds ${JSON.stringify(left)}`);
      return [
        ...expectText(r.out, new RegExp(`- ${COUNT} deleted`), `deletes ${COUNT}`),
        ...(Object.values(left).every((n) => n === 0) ? [] : [`the emulator is not empty: ${JSON.stringify(left)}`]),
      ];
    });

    // Bad input is refused at preview, in the program's terms, before any write.
    const valid = fs.readFileSync(file, "utf8");
    fs.writeFileSync(file, valid.replace('"10.0.2.0/24"', '"10.0.2.0/33"'));
    mark = emulator.control.listRequests().length;
    await step(
      "a refused input",
      ["preview"],
      (r) => [
        ...expectText(
          r.out,
          /VpcSubnet resource 'data': property ipv4 value \{10\.0\.2\.0\/33\} has a problem/,
          "names the subnet and its ipv4",
        ),
        ...writesSince(mark).map((w) => `the preview sent a write: ${w}`),
      ],
      { fails: true },
    );
    return records;
  } finally {
    await client.close();
    await emulator.close();
    if (keep) console.log(`   kept ${work}`);
    else fs.rmSync(work, { recursive: true, force: true });
  }
}

async function main(argv: string[]): Promise<number> {
  let hosts = process.env.PULUMI_COMPUTE_LANGUAGE_HOSTS ?? "";
  let keep = false;
  const asked: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--hosts") hosts = argv[++i] ?? "";
    else if (arg === "--keep") keep = true;
    else if (arg in LANGUAGES) asked.push(arg);
    else {
      console.error(`unknown argument ${arg}\n${USAGE}`);
      return 64;
    }
  }
  if (!hosts) {
    console.error(
      "No language host given: this run needs a folder holding pulumi-language-python or pulumi-language-go\n" +
        "(a Pulumi installation's, e.g. ~/.pulumi/bin), as --hosts DIR or PULUMI_COMPUTE_LANGUAGE_HOSTS. Nothing ran.\n" +
        USAGE,
    );
    return 2;
  }
  hosts = path.resolve(hosts);
  const missing = (name: string) => LANGUAGES[name]!.hostFiles.filter((f) => !fs.existsSync(path.join(hosts, f)));
  const chosen = asked.length > 0 ? asked : Object.keys(LANGUAGES).filter((name) => missing(name).length === 0);
  if (chosen.length === 0) {
    console.error(`${hosts} holds neither pulumi-language-python nor pulumi-language-go. Nothing ran.\n${USAGE}`);
    return 2;
  }
  for (const name of chosen) {
    if (missing(name).length > 0) {
      console.error(`${name}: ${hosts} lacks ${missing(name).join(" and ")}. Nothing ran.`);
      return 2;
    }
  }

  const results: Record<string, StepRecord[]> = {};
  let failed = false;
  for (const name of chosen) {
    try {
      results[name] = await runLanguage(name, LANGUAGES[name]!, hosts, keep);
    } catch (error) {
      failed = true;
      console.error(`FAILED ${error instanceof Failure ? error.message : String((error as Error).stack ?? error)}`);
    }
  }
  for (const [name, steps] of Object.entries(results)) {
    console.log(`${name}: passed: ${steps.map((s) => `${s.name} ${s.seconds.toFixed(1)} s`).join(", ")}`);
  }
  return failed ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
