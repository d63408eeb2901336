/**
 * The project an emulated stack runs: a folder's `Pulumi.yaml` read as it is, with `main` and the
 * declared plugins' paths made absolute (the stack runs it from a workspace of its own) and the
 * stack's backend; an inline program's provider starts where this package is installed.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pulumiCommand } from "../../../provider/stack/pulumi-cli";
import { PLUGINS_YAML } from "../../../provider/launch/plugins";
import { folderProject, inlineProgramMain, inlineProject } from "../../../provider/testing/emulated-project";
import { packageRoot } from "../../../provider/launch/plugins";
import { REPO_ROOT } from "../../support/engine";

let folder: string;
beforeEach(() => (folder = fs.mkdtempSync(path.join(os.tmpdir(), "pc-project-"))));
afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

test("a folder's settings, with main and plugin paths absolute and the stack's backend; the folder is left as it was", async () => {
  fs.writeFileSync(
    path.join(folder, "Pulumi.yaml"),
    `name: my-infra\nruntime:\n  name: nodejs\n  options:\n    typescript: false\nmain: src\n${PLUGINS_YAML}`,
  );
  const before = fs.readdirSync(folder);
  const settings = await folderProject(folder, await pulumiCommand(), "file:///state");
  expect(settings).toMatchObject({
    name: "my-infra",
    runtime: { name: "nodejs", options: { typescript: false } },
    main: path.join(folder, "src"),
    backend: { url: "file:///state" },
    plugins: { providers: [{ name: "pulumi-nodejs", path: path.join(folder, "node_modules/pulumi-compute/plugins") }] },
  });
  expect(fs.readdirSync(folder)).toEqual(before);
});

test("a folder without Pulumi.yaml is refused, saying what to give", async () => {
  await expect(folderProject(folder, await pulumiCommand(), "file:///state")).rejects.toThrow(
    /has no Pulumi.yaml; give the folder of a Pulumi project/,
  );
});

test("an inline program's provider starts where pulumi-compute resolves (here, this checkout), through the package's launcher", () => {
  expect(packageRoot()).toBe(REPO_ROOT);
  expect(inlineProgramMain()).toBe(REPO_ROOT);
  expect(inlineProject("p", "file:///s")).toEqual({
    name: "p",
    runtime: "nodejs",
    main: REPO_ROOT,
    backend: { url: "file:///s" },
    plugins: {
      providers: [
        { name: "pulumi-nodejs", path: path.join(REPO_ROOT, "plugins") },
        { name: "compute", path: path.join(REPO_ROOT, "plugins") },
      ],
    },
  });
});
