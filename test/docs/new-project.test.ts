/**
 * The README's new project: the files it quotes are the template's (examples/new-project), the
 * template asks for the versions this package is built and tested with, and the steps install
 * the tarball `npm pack` writes today, with the registry's form kept for after publication. The
 * steps themselves run, as written, in test/e2e/cli-path.e2e.test.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../support/engine";

const readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
const repoPackage = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));
const template = (name: string) => fs.readFileSync(path.join(REPO_ROOT, "examples/new-project", name), "utf8");

/** The body of the README's `## <title>` section. */
function section(title: string): string {
  const start = readme.indexOf(`\n## ${title}\n`);
  expect(start).toBeGreaterThan(-1);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

test("the README's \"Using it\" gives the new-project template's package.json and tsconfig.json exactly", () => {
  const blocks = [...section("Using it").matchAll(/```json\n([\s\S]*?)\n```/g)].map((m) => m[1]);
  expect(blocks.slice(0, 2)).toEqual([template("package.json").trimEnd(), template("tsconfig.json").trimEnd()]);
});

test("the new-project template asks for the versions this package is built and tested with, pulumi-compute in the registry's form", () => {
  const pkg = JSON.parse(template("package.json"));
  expect(pkg.dependencies).toEqual({
    "@pulumi/pulumi": repoPackage.devDependencies["@pulumi/pulumi"],
    "pulumi-compute": `^${repoPackage.version}`,
  });
  expect(pkg.devDependencies).toEqual({
    "@types/node": repoPackage.devDependencies["@types/node"],
    typescript: repoPackage.devDependencies.typescript,
  });
});

test("the README's new-project steps install the tarball `npm pack` writes for this version", () => {
  const from = readme.indexOf("A new project, against a standalone emulator");
  const block = /```sh\n([\s\S]*?)\n```/.exec(readme.slice(from))![1]!;
  const tarball = `pulumi-compute-${repoPackage.version}.tgz`;
  expect(block).toMatch(/^npm run build && npm pack --pack-destination ~ /m);
  expect(block).toContain(`npm install ~/${tarball} `);
  expect(block).toMatch(/once pulumi-compute is on the npm registry: npm install$/m);
});
