/**
 * The engine builds on a fresh machine only if the configured Go module proxy serves every pinned
 * version: asked of the proxy itself (`go env GOPROXY`), never of the local module cache.
 */
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { execFileSync } from "node:child_process";
import {
  buildList,
  describeRefusals,
  escapePath,
  findRefusals,
  neededFromModule,
  proxyChain,
  goModules,
  type Needed,
} from "../../scripts/setup/module-proxy";
import { REPO_ROOT } from "../support/engine";

jest.setTimeout(60_000);

test("every version pinned by tools/*/go.mod, test/contract/go.mod, sdks/go/go.mod, bench/native-floor/go.mod and their go.sum is served by the configured proxy", async () => {
  const goproxy = execFileSync("go", ["env", "GOPROXY"], { encoding: "utf8" }).trim();
  const chain = proxyChain(goproxy);
  expect({ goproxy, proxies: chain.length }).toMatchObject({ proxies: expect.any(Number) });
  expect(chain.length).toBeGreaterThan(0); // GOPROXY=direct/off: the engine could not be built from a proxy

  const modules = goModules(REPO_ROOT);
  expect(modules.map((m) => m.dir)).toEqual([
    "tools/pulumi-engine",
    "tools/pulumi-language-nodejs",
    "tools/pulumi-language-yaml",
    "tools/sdkgen",
    "test/contract",
    "sdks/go",
    "bench/native-floor",
  ]);
  const needed = modules.flatMap((m) => neededFromModule(m.goMod, m.goSum, m.dir));
  const version = (JSON.parse(fs.readFileSync(require.resolve("@pulumi/pulumi/package.json"), "utf8")) as { version: string }).version;
  expect(needed).toContainEqual(
    expect.objectContaining({ path: "github.com/pulumi/pulumi/pkg/v3", version: `v${version}`, files: [".info", ".mod", ".zip"] }),
  );
  expect(needed).toContainEqual(
    expect.objectContaining({ path: "github.com/pulumi/pulumi/sdk/v3", version: "v3.68.0", source: "tools/pulumi-language-nodejs" }),
  );
  expect(needed).toContainEqual(
    expect.objectContaining({ path: "github.com/pulumi/pulumi-yaml", version: "v1.38.1", source: "tools/pulumi-language-yaml" }),
  );
  expect(needed).toContainEqual(
    expect.objectContaining({
      path: "github.com/linode/linodego",
      version: "v1.69.1",
      source: "test/contract",
      files: [".info", ".mod", ".zip"],
    }),
  );

  const refusals = await findRefusals(chain, needed);
  expect(describeRefusals(refusals)).toBe("");
});

describe("reading the pins", () => {
  const goMod = [
    "module local.invalid/x",
    "go 1.26.0",
    "require github.com/pulumi/pulumi/pkg/v3 v3.259.0",
    "require (",
    "\tgocloud.dev v0.46.1-0.20260810195832-b5401c07b5f1 // indirect",
    "\tgithub.com/AlecAivazis/survey/v2 v2.3.7 // indirect",
    "\tgithub.com/atotto/clipboard v0.1.4 // indirect",
    "\texample.com/local v1.0.0",
    ")",
    "replace github.com/atotto/clipboard => github.com/tgummerer/clipboard v0.0.0-20241001131231-d02d263e614e",
    "replace (",
    "\tgocloud.dev => gocloud.dev v0.47.0",
    "\texample.com/local v1.0.0 => ../local",
    ")",
  ].join("\n");

  test("the build list is the requirements with their replacements applied; local replacements need nothing", () => {
    expect(buildList(goMod)).toEqual([
      { path: "github.com/pulumi/pulumi/pkg/v3", version: "v3.259.0" },
      { path: "gocloud.dev", version: "v0.47.0" },
      { path: "github.com/AlecAivazis/survey/v2", version: "v2.3.7" },
      { path: "github.com/tgummerer/clipboard", version: "v0.0.0-20241001131231-d02d263e614e" },
    ]);
  });

  test("go.sum adds the go.mod of every other version the module graph reads", () => {
    const goSum = "gocloud.dev v0.47.0 h1:x=\ngocloud.dev v0.47.0/go.mod h1:y=\ngolang.org/x/text v0.3.0/go.mod h1:z=\n";
    const needed = neededFromModule(goMod, goSum, "tools/x");
    expect(needed.find((m) => m.path === "gocloud.dev")).toMatchObject({ version: "v0.47.0", files: [".info", ".mod", ".zip"] });
    expect(needed.find((m) => m.path === "golang.org/x/text")).toEqual({
      path: "golang.org/x/text",
      version: "v0.3.0",
      files: [".mod"],
      source: "tools/x",
    });
  });

  test("GOPROXY lists proxies up to direct or off, with how each falls through", () => {
    expect(proxyChain("https://proxy.golang.org,direct")).toEqual([{ url: "https://proxy.golang.org", fallThrough: "not-found" }]);
    expect(proxyChain("https://a.example/|https://b.example,off")).toEqual([
      { url: "https://a.example", fallThrough: "any-error" },
      { url: "https://b.example", fallThrough: "not-found" },
    ]);
    expect(proxyChain("direct")).toEqual([]);
  });

  test("upper-case letters are escaped as the proxy protocol says", () => {
    expect(escapePath("github.com/AlecAivazis/survey/v2")).toBe("github.com/!alec!aivazis/survey/v2");
  });
});

describe("asking a proxy", () => {
  // A proxy that refuses one version's .info alone, as the real one was seen doing, and answers
  // 404 for a module it does not know.
  let server: http.Server;
  let url: string;
  const served = new Set([
    "/ok.example/m/@v/v1.0.0",
    "/gocloud.dev/@v/v0.46.1-0.20260810195832-b5401c07b5f1",
    "/second.example/m/@v/v1.0.0",
  ]);
  const log: string[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      log.push(`${req.method} ${req.url}`);
      const [base, ext] = [req.url!.replace(/\.(info|mod|zip)$/, ""), req.url!.split(".").pop()];
      if (base === "/gocloud.dev/@v/v0.46.1-0.20260810195832-b5401c07b5f1" && ext === "info") {
        res.writeHead(403, { "content-type": "text/plain" }).end("This module version is not available.");
      } else if (served.has(base)) {
        res.writeHead(200).end(req.method === "HEAD" ? undefined : "{}");
      } else {
        res.writeHead(404).end("not found");
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const pin = (path: string, version: string): Needed => ({ path, version, files: [".info", ".mod", ".zip"], source: "tools/x" });

  test("a refused version is named with the proxy's answer; served ones pass", async () => {
    const refusals = await findRefusals(proxyChain(`${url},direct`), [
      pin("ok.example/m", "v1.0.0"),
      pin("gocloud.dev", "v0.46.1-0.20260810195832-b5401c07b5f1"),
    ]);
    expect(describeRefusals(refusals)).toBe(
      "gocloud.dev@v0.46.1-0.20260810195832-b5401c07b5f1 (tools/x): .info 403 This module version is not available.",
    );
    expect(log).toContain("HEAD /ok.example/m/@v/v1.0.0.zip"); // the source is never downloaded
  });

  test("a version that several modules pin is asked once", async () => {
    log.length = 0;
    const twice = { ...pin("ok.example/m", "v1.0.0"), source: "bench/native-floor" };
    expect(await findRefusals(proxyChain(url), [pin("ok.example/m", "v1.0.0"), twice])).toEqual([]);
    expect(log.filter((line) => line.includes("/ok.example/m/@v/v1.0.0")).sort()).toEqual([
      "GET /ok.example/m/@v/v1.0.0.info",
      "GET /ok.example/m/@v/v1.0.0.mod",
      "HEAD /ok.example/m/@v/v1.0.0.zip",
    ]);
  });

  test("after a 404 the next proxy is asked; after a 403 it is not", async () => {
    const missing = pin("second.example/m", "v1.0.0");
    const chain = proxyChain(`${url}/nowhere,${url}`);
    expect(await findRefusals(chain, [missing])).toEqual([]);
    const refusedFirst = await findRefusals(proxyChain(`${url},${url}/nowhere`), [
      pin("gocloud.dev", "v0.46.1-0.20260810195832-b5401c07b5f1"),
    ]);
    expect(refusedFirst.map((r) => r.file)).toEqual([".info"]);
  });
});
