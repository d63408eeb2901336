/**
 * The generated project's files besides index.ts — Pulumi.yaml, package.json (depending on this
 * package, at the versions it is built with) and a tsconfig.json the language host's ts-node
 * accepts (the one examples/new-project uses) — and writing them all at once: into a temporary
 * folder beside `--out`, renamed into place only when complete.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { PLUGINS_YAML } from "../../launch/plugins";

/** This package's package.json (found upwards from here: `dist/provider/cli/import` installed, `provider/cli/import` in the repository). */
interface OwnPackage {
  version: string;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

function ownPackage(): OwnPackage {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, "utf8"));
      if (pkg.name === "pulumi-compute") return pkg;
    }
    if (path.dirname(dir) === dir) throw new Error("cannot find pulumi-compute's package.json");
  }
}

/** A Pulumi project name from a folder name: letters, digits, `-`, `_`, `.`. */
export function projectName(out: string): string {
  const name = path
    .basename(path.resolve(out))
    .replace(/[^A-Za-z0-9_.-]+/g, "-")
    .replace(/^[-.]+|-+$/g, "");
  return name === "" ? "imported" : name;
}

/** Every file of the project, by name. */
export function projectFiles(name: string, index: string): Record<string, string> {
  const pkg = ownPackage();
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  return {
    // The package's launcher declared, so previews are exact on any Pulumi (provider/launch/plugins.ts).
    "Pulumi.yaml": `name: ${name}\nruntime: nodejs\ndescription: Objects of an existing account, imported by pulumi-compute import.\n${PLUGINS_YAML}`,
    "package.json": json({
      name,
      private: true,
      // @pulumi/pulumi is the package's peer: the project pins the version the package is tested with.
      dependencies: {
        "@pulumi/pulumi": pkg.devDependencies?.["@pulumi/pulumi"] ?? pkg.peerDependencies?.["@pulumi/pulumi"],
        "pulumi-compute": `^${pkg.version}`,
      },
      devDependencies: { "@types/node": pkg.devDependencies?.["@types/node"], typescript: pkg.devDependencies?.typescript },
    }),
    // TypeScript 6 refuses `moduleResolution: node`; the language host's ts-node takes nodenext.
    "tsconfig.json": json({
      compilerOptions: {
        strict: true,
        target: "ES2022",
        module: "nodenext",
        moduleResolution: "nodenext",
        types: ["node"],
        skipLibCheck: true,
      },
      files: ["index.ts"],
    }),
    "index.ts": index,
  };
}

/** Why `out` cannot receive a project, or undefined when it can (absent, or an empty folder). */
export function outProblem(out: string): string | undefined {
  if (!fs.existsSync(out)) return undefined;
  if (!fs.statSync(out).isDirectory()) return `--out ${out} is a file, not a folder`;
  if (fs.readdirSync(out).length > 0) return `--out ${out} is not empty; choose a new or empty folder`;
  return undefined;
}

/** Writes the files into a temporary sibling of `out`, then renames it to `out`: nothing half-written is ever left there. */
export function writeProject(out: string, files: Record<string, string>): void {
  const target = path.resolve(out);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const temp = fs.mkdtempSync(path.join(path.dirname(target), `.${path.basename(target)}-import-`));
  try {
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(temp, name), text);
    // An empty `out` may exist (checked by the caller): rename cannot replace a folder on every platform.
    if (fs.existsSync(target)) fs.rmdirSync(target);
    fs.renameSync(temp, target);
  } catch (error) {
    fs.rmSync(temp, { recursive: true, force: true });
    throw error;
  }
}
