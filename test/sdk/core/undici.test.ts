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

test("it loads only the parts the client uses, and they are undici's own: its Agent, its FormData, its request through a dispatcher", async () => {
  const parts = JSON.stringify(path.join(REPO_ROOT, "dist/sdk/core/undici.js"));
  const result = await runProcess(
    process.execPath,
    [
      "-e",
      `
      const { undici } = require(${parts});
      const { Agent, FormData, request } = undici();
      const loaded = Object.keys(require.cache).filter((k) => k.includes("/node_modules/undici/"));
      const index = require("undici");
      const mock = new index.MockAgent();
      mock.disableNetConnect();
      mock.get("http://127.0.0.1:1").intercept({ path: "/v4/regions?page=2", method: "GET" }).reply(200, { ok: true });
      request(new URL("http://127.0.0.1:1/v4/regions?page=2"), { dispatcher: mock, method: "GET" })
        .then((response) => response.body.json())
        .then((body) => console.log(JSON.stringify({
          modules: loaded.length,
          fetch: loaded.some((k) => k.includes("/lib/web/fetch/index.js")),
          same: Agent === index.Agent && FormData === index.FormData,
          body,
        })));
      `,
    ],
    { cwd: REPO_ROOT },
  );
  expect(result.code).toBe(0);
  const report = JSON.parse(result.out.trim().split("\n").at(-1)!) as { modules: number; fetch: boolean; same: boolean; body: unknown };
  expect({ ...report, modules: report.modules < 50 }).toEqual({ modules: true, fetch: false, same: true, body: { ok: true } });
});
