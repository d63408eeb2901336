/**
 * The language of the program a provider plugin serves, as its project's `Pulumi.yaml` names the
 * runtime (`runtime: yaml`, or `runtime: {name: python, …}`). The engine starts the plugin in the
 * project's folder (or in its `main`, a folder below), so the nearest `Pulumi.yaml` upwards is the
 * project's. Messages write their advice (an `aliases` option) in this language.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { ProgramLanguage } from "../engine/alias-text";

const LANGUAGES: readonly ProgramLanguage[] = ["nodejs", "yaml", "python", "go"];

/** The runtime a `Pulumi.yaml` names, when this package writes advice in its language. */
export function runtimeOf(projectFile: string): ProgramLanguage | undefined {
  const text = fs.readFileSync(projectFile, "utf8");
  const name =
    /^runtime:[ \t]*["']?([A-Za-z]+)/m.exec(text)?.[1] ??
    /^runtime:[ \t]*\n(?:[ \t]+.*\n)*?[ \t]+name:[ \t]*["']?([A-Za-z]+)/m.exec(text)?.[1];
  return LANGUAGES.find((l) => l === name);
}

let found: { dir: string; language: ProgramLanguage } | undefined;

/** The language of the project in `dir` (the process's folder) or above it; TypeScript when none says. */
export function projectLanguage(dir: string = process.cwd()): ProgramLanguage {
  if (found?.dir === dir) return found.language;
  let language: ProgramLanguage = "nodejs";
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    const file = ["Pulumi.yaml", "Pulumi.yml"].map((f) => path.join(at, f)).find((f) => fs.existsSync(f));
    if (file) {
      language = runtimeOf(file) ?? language;
      break;
    }
    if (path.dirname(at) === at) break;
  }
  found = { dir, language };
  return language;
}
