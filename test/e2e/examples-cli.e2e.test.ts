/**
 * Every example's own Pulumi.yaml, and the root one, run through the `pulumi` CLI
 * (`npm run demo -- --cli <name>`): the compiled program through the Node.js language host, in
 * the example's folder, with the same phases and checks as the Automation API run. The run leaves
 * no stack settings file behind in the repository.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../support/engine";
import { EXAMPLES } from "../../examples/catalog";
import { demo, expectQuickstartPhases } from "../support/demo";

jest.setTimeout(300_000);

const settingsFiles = () =>
  Object.values(EXAMPLES).flatMap((example) =>
    fs.readdirSync(path.join(REPO_ROOT, example.folder)).filter((f) => /^Pulumi\..+\.yaml$/.test(f)),
  );

test("the quickstart through the CLI in the repository root: each phase, the drift it found, the teardown", async () => {
  const { code, out } = await demo("--cli", "quickstart");
  expect({ code, tail: out.slice(-400) }).toMatchObject({ code: 0 });
  expect(out).toContain("through the pulumi CLI in the repository root");
  expectQuickstartPhases(out);
  expect(settingsFiles()).toEqual([]);
});

test.each(Object.keys(EXAMPLES).filter((name) => name !== "quickstart"))("the %s example through the CLI in its folder", async (name) => {
  const { code, out } = await demo("--cli", name);
  expect({ code, tail: out.slice(-400) }).toMatchObject({ code: 0 });
  expect(out).toContain(`through the pulumi CLI in examples/${name}`);
  expect(out).toContain(`Demo finished: every phase of "${name}" succeeded.`);
  expect(settingsFiles()).toEqual([]);
});
