/**
 * CHANGELOG.md and the version: it opens with `## Unreleased`, where every change a user sees goes
 * until a release is cut; its newest release is package.json's version, releases go newest first,
 * each dated and with an Upgrading part; and every place the docs and the template name the package's
 * version (the tarball `npm pack` writes, the range a project asks for, the policy pack's version
 * the engine prints) names package.json's, so a release moves them all or fails here.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../scripts/coverage/table";
import { docFiles } from "../../scripts/docs/examples";

const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), "utf8");
const { version } = JSON.parse(read("package.json")) as { version: string };
const changelog = read("CHANGELOG.md");
/** Each entry: its version, and its text up to the next entry. */
const entries = [...changelog.matchAll(/^## (\d+\.\d+\.\d+)\b.*$/gm)].map((m, i, all) => ({
  version: m[1]!,
  text: changelog.slice(m.index, all[i + 1]?.index),
}));
const numbers = (v: string) => v.split(".").map(Number);

test("CHANGELOG.md opens with `## Unreleased`, the one section above the newest release; every other section is a dated release", () => {
  const headings = [...changelog.matchAll(/^## .*$/gm)].map((m) => m[0]);
  expect(headings[0]).toBe("## Unreleased");
  expect(headings.slice(1).filter((heading) => !/^## \d+\.\d+\.\d+ \(\d{4}-\d{2}-\d{2}\)$/.test(heading))).toEqual([]);
  expect(headings.length).toBe(entries.length + 1);
});

test("the newest release of CHANGELOG.md is package.json's version", () => {
  expect(entries[0]?.version).toBe(version);
});

test("entries go newest first, and each has an Upgrading part", () => {
  expect(entries.length).toBeGreaterThanOrEqual(2);
  for (let i = 1; i < entries.length; i++) {
    const [newer, older] = [numbers(entries[i - 1]!.version), numbers(entries[i]!.version)];
    const order = newer.map((n, k) => n - older[k]!).find((d) => d !== 0) ?? 0;
    expect({ newer: entries[i - 1]!.version, older: entries[i]!.version, newerFirst: order > 0 }).toMatchObject({ newerFirst: true });
  }
  for (const entry of entries) expect(entry.text).toContain("\n### Upgrading\n");
});

test("the README, docs/ and the new-project template name package.json's version wherever they name one", () => {
  const mentions = [
    /pulumi-compute-(\d+\.\d+\.\d+)\.tgz/g,
    /"pulumi-compute": "\^(\d+\.\d+\.\d+)"/g,
    /compute-guardrails@v(\d+\.\d+\.\d+)/g,
    /registry's `\^(\d+\.\d+\.\d+)`/g,
  ];
  const files = [...docFiles(REPO_ROOT), "examples/new-project/package.json"];
  const found = files.flatMap((file) => mentions.flatMap((pattern) => [...read(file).matchAll(pattern)].map((m) => `${file}: ${m[1]}`)));
  // The README's tarball (twice) and range, getting started's and the template's package.json, the policy guide's output.
  expect(found.length).toBeGreaterThanOrEqual(6);
  expect(found.filter((f) => !f.endsWith(`: ${version}`))).toEqual([]);
});
