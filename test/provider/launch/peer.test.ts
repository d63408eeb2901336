/**
 * `@pulumi/pulumi` is a peer dependency: where it is missing, one line says what to install
 * (instead of `Cannot find module` with a require stack, or the engine's `could not read plugin
 * […pulumi-resource-pulumi-nodejs]: EOF`), where the engine starts the provider plugin. End to end:
 * the CLI in test/e2e/cli-path, an Automation API inline program in test/e2e/automation-path.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  MissingPulumiError,
  PULUMI_PEER_RANGE,
  assertProviderPluginLoadable,
  assertPulumiLoadable,
  providerPluginDirectory,
} from "../../../provider/launch/peer";
import { REPO_ROOT } from "../../support/engine";

const repoPackage = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));

test("the package declares @pulumi/pulumi as a peer, and pins the version it is built and tested with for itself", () => {
  expect(repoPackage.dependencies["@pulumi/pulumi"]).toBeUndefined();
  expect(repoPackage.peerDependencies).toEqual({ "@pulumi/pulumi": PULUMI_PEER_RANGE });
  expect(PULUMI_PEER_RANGE).toBe(`^${repoPackage.devDependencies["@pulumi/pulumi"]}`);
});

test("where the SDK is installed, nothing is said", () => {
  expect(() => assertPulumiLoadable()).not.toThrow();
  expect(() => assertProviderPluginLoadable(REPO_ROOT)).not.toThrow();
});

test("a folder the engine starts the provider in without the SDK: one line naming the folder and what to install", () => {
  const project = fs.mkdtempSync(path.join(os.tmpdir(), "pc-no-sdk-"));
  try {
    let error: unknown;
    try {
      assertProviderPluginLoadable(project);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MissingPulumiError);
    const { message, stack } = error as Error;
    expect(message).toBe(
      `pulumi-compute needs @pulumi/pulumi installed in the project (${project}): run \`npm install @pulumi/pulumi@${PULUMI_PEER_RANGE}\` there`,
    );
    expect(stack).toBe(`MissingPulumiError: ${message}`); // what the engine prints of an unhandled error: one line
  } finally {
    fs.rmSync(project, { recursive: true, force: true });
  }
});

describe("where the engine starts the provider plugin", () => {
  const saved = process.env.PULUMI_NODEJS_MONITOR;
  afterEach(() => {
    if (saved === undefined) delete process.env.PULUMI_NODEJS_MONITOR;
    else process.env.PULUMI_NODEJS_MONITOR = saved;
  });

  test("a program the language host started runs there: its working folder", () => {
    process.env.PULUMI_NODEJS_MONITOR = "127.0.0.1:1"; // set by @pulumi/pulumi/cmd/run, which changed into the engine's pwd
    expect(providerPluginDirectory()).toBe(process.cwd());
  });

  test("anywhere else, outside an inline program's run, it is not known: nothing is checked, nothing refused", () => {
    delete process.env.PULUMI_NODEJS_MONITOR;
    expect(providerPluginDirectory()).toBeUndefined();
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), "pc-elsewhere-"));
    const cwd = process.cwd();
    try {
      process.chdir(elsewhere); // a caller's folder without the SDK says nothing about the plugin's
      expect(() => assertProviderPluginLoadable()).not.toThrow();
    } finally {
      process.chdir(cwd);
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});

test("an inline program learns the folder from the engine's run request, one per run, even with runs at once", async () => {
  // The real server's `run` connects to an engine (end to end in test/e2e/automation-path); here
  // its body is a program that answers, after a pause, where the plugin starts.
  let seen: Promise<Array<string | undefined>> | undefined;
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- fresh copies of both modules, for this test only
    const server = require("@pulumi/pulumi/automation/server");
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
    const peer = require("../../../provider/launch/peer") as typeof import("../../../provider/launch/peer");
    server.LanguageServer.prototype.run = async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      return peer.providerPluginDirectory();
    };
    peer.watchInlinePrograms();
    peer.watchInlinePrograms(); // a second load of the package wraps nothing twice
    const run = (pwd: string) => new server.LanguageServer(async () => undefined).run({ request: { getPwd: () => pwd } }, () => undefined);
    seen = Promise.all([run("/srv/a"), run("/srv/b"), Promise.resolve(peer.providerPluginDirectory())]);
  });
  expect(await seen).toEqual(["/srv/a", "/srv/b", undefined]);
});
