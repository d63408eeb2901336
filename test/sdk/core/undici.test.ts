/**
 * undici is loaded on first use (`sdk/core/undici.ts`): a program that only declares resources,
 * and the provider registry before its first request, do not pay for loading it; a client's
 * first request does. Checked in a fresh Node process, whose module cache is its own.
 */
import * as path from "node:path";
import { REPO_ROOT } from "../../support/engine";
import { runProcess } from "../../support/process";

const loadsUndici = async (script: string) => {
  const result = await runProcess(
    process.execPath,
    ["-e", `${script}; console.log(Object.keys(require.cache).some((k) => k.includes("/node_modules/undici/")))`],
    {
      cwd: REPO_ROOT,
    },
  );
  expect(result.code).toBe(0);
  return result.out.trim().split("\n").at(-1);
};

test("loading the provider package or its registry does not load undici", async () => {
  expect(await loadsUndici(`require(${JSON.stringify(path.join(REPO_ROOT, "dist/provider/index.js"))})`)).toBe("false");
  expect(await loadsUndici(`require(${JSON.stringify(path.join(REPO_ROOT, "registry"))}).provider("DomainRecord")`)).toBe("false");
});

test("a client loads it when it is made, ready for its first request", async () => {
  const client = path.join(REPO_ROOT, "dist/sdk/client.js");
  expect(
    await loadsUndici(`new (require(${JSON.stringify(client)}).ComputeClient)({ baseUrl: "http://127.0.0.1:1/v4", token: "t" })`),
  ).toBe("true");
});
