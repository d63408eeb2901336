/**
 * The README's new project: its program is the template's (examples/new-project/index.ts), the
 * files getting started quotes are the template's, the template asks for the versions this
 * package is built and tested with, and the runnable steps install the tarball `npm pack` writes
 * today (the registry's form kept for after publication) and confirm `up` and `destroy` themselves
 * (`--yes`), so they run without a terminal. The steps run, as written, in
 * test/e2e/cli-path.e2e.test.ts.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { codeBlocks } from "../../scripts/docs/examples";
import { newProjectBlock, templateCopy } from "../support/new-project";
import { REPO_ROOT } from "../support/engine";
import { runProcess } from "../support/process";

const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), "utf8");
const repoPackage = JSON.parse(read("package.json"));
const template = (name: string) => read(path.join("examples/new-project", name));

/** The blocks of a Markdown file's `## <title>` section. */
function sectionBlocks(file: string, title: string) {
  const text = read(file);
  const start = text.indexOf(`\n## ${title}\n`);
  expect(start).toBeGreaterThan(-1);
  const end = text.indexOf("\n## ", start + 1);
  return codeBlocks(file, text.slice(start, end === -1 ? undefined : end));
}

test("the README's program is examples/new-project/index.ts, and so is getting started's", () => {
  const program = template("index.ts").trimEnd();
  expect(
    sectionBlocks("README.md", "A new project in five minutes")
      .filter((b) => b.lang === "ts")
      .map((b) => b.code),
  ).toEqual([program]);
  expect(
    sectionBlocks("docs/getting-started.md", "The files of a project")
      .filter((b) => b.lang === "ts")
      .map((b) => b.code),
  ).toEqual([program]);
});

test("getting started gives the new-project template's package.json, tsconfig.json and Pulumi.yaml exactly", () => {
  const blocks = sectionBlocks("docs/getting-started.md", "The files of a project");
  expect(blocks.filter((b) => b.lang === "json").map((b) => b.code)).toEqual([
    template("package.json").trimEnd(),
    template("tsconfig.json").trimEnd(),
  ]);
  expect(blocks.filter((b) => b.lang === "yaml").map((b) => b.code)).toEqual([template("Pulumi.yaml").trimEnd()]);
});

test("the new-project template asks for the versions this package is built and tested with, pulumi-compute in the registry's form", () => {
  const pkg = JSON.parse(template("package.json"));
  expect(pkg.dependencies).toEqual({
    "@pulumi/pulumi": repoPackage.devDependencies["@pulumi/pulumi"],
    "pulumi-compute": `^${repoPackage.version}`,
  });
  expect(pkg.devDependencies).toEqual({
    "@jest/globals": repoPackage.devDependencies.jest,
    "@types/node": repoPackage.devDependencies["@types/node"],
    jest: repoPackage.devDependencies.jest,
    "ts-jest": repoPackage.devDependencies["ts-jest"],
    typescript: repoPackage.devDependencies.typescript,
  });
  // Its own tests: the program's types checked (its jest transpiles only), then its own jest.
  expect(pkg.scripts).toEqual({ test: "tsc --noEmit && jest" });
  expect(fs.existsSync(path.join(REPO_ROOT, "examples/new-project/index.test.ts"))).toBe(true);
});

test("the README's new-project steps run the project's tests, give the emulator its token, and stop it", () => {
  const steps = newProjectBlock();
  expect(steps).toMatch(/^npm test\b/m);
  const token = /--token (\S+) &/.exec(steps)?.[1];
  expect(token).toBeDefined();
  expect(steps).toContain(`pulumi config set --secret compute:token ${token}`);
  expect(steps.trimEnd().split("\n").pop()).toMatch(/^kill %1\s/);
});

test("the README's new-project steps install the tarball `npm pack` writes for this version", () => {
  const block = newProjectBlock();
  const tarball = `pulumi-compute-${repoPackage.version}.tgz`;
  expect(block).toMatch(/^npm run build && npm pack --pack-destination ~ /m);
  expect(block).toContain(`npm install ~/${tarball} `);
  expect(block).toMatch(/once pulumi-compute is on the npm registry: npm install$/m);
});

test("the README's new-project steps confirm `up` and `destroy` themselves, so they run without a terminal", () => {
  const commands = newProjectBlock()
    .split("\n")
    .flatMap((line) => line.replace(/\s+#\s.*$/, "").split("&&"))
    .map((command) => command.trim());
  const confirming = commands.filter((command) => /^pulumi (up|destroy|refresh|import)\b/.test(command));
  expect(confirming.length).toBeGreaterThanOrEqual(3);
  for (const command of confirming) expect(command).toMatch(/\s--yes\b|--preview-only/);
});

test("the tests' copy of the README's program (test/support/readme-program.ts) declares what index.ts declares, line for line", () => {
  const declarations = template("index.ts")
    .split("\n")
    .filter((line) => line.trim() && !/^(import|export)\b/.test(line));
  const copy = read("test/support/readme-program.ts");
  for (const line of declarations) expect(copy).toContain(`  ${line}`);
  // And it answers the same outputs.
  for (const [, name] of template("index.ts").matchAll(/^export const (\w+)/gm)) expect(copy).toContain(`${name}:`);
});

test("getting started's claim holds: `npx tsc --noEmit` in a copy of the template checks a file the user adds, and fails on a wrong client call", async () => {
  const project = fs.mkdtempSync(path.join(os.tmpdir(), "pc-template-tsc-"));
  try {
    templateCopy(project);
    fs.writeFileSync(
      path.join(project, "vpc-label.test.ts"),
      [
        'import { ComputeClient } from "pulumi-compute";',
        "",
        'const client = new ComputeClient({ baseUrl: "http://127.0.0.1:4010/v4", token: "dev-token" });',
        // Over two lines, so the coverage table does not count this file as a test of the endpoint.
        "export const renamed = client.vpcs",
        '  .update(1, { lable: "changed-by-hand" });',
        "",
      ].join("\n"),
    );
    const tsc = await runProcess(process.execPath, [path.join(REPO_ROOT, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", project], {
      cwd: project,
    });
    expect(tsc.code).not.toBe(0);
    // The one error is the added file's: the template's own index.ts and index.test.ts type-check.
    const errors = tsc.out.split("\n").filter((line) => /error TS\d+/.test(line));
    expect(errors).toEqual([expect.stringMatching(/^vpc-label\.test\.ts\(5,\d+\): error TS\d+: .*'lable' does not exist/)]);
  } finally {
    fs.rmSync(project, { recursive: true, force: true });
  }
}, 120_000);
