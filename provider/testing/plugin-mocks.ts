/**
 * `pulumi-resource-compute --mocks` (the launcher runs this file): the provider plugin
 * (`plugin/main.ts`) serving an emulated account of its own, for the unit tests of programs in
 * other languages. Python's and Go's mocks (`pulumi_compute.testing`,
 * the Go SDK's `compute/testing`) start the plugin this way and send each of the package's
 * resources through its Check and Create, and each data function through its Invoke, so a test
 * sees what an `up` records — ids in the API's form, `hosts.primary`, `port`, the API's refusals —
 * from the same engine as every other door. The account is `computeMocks`'s: the emulator in
 * this process, seeded with the demo environment, on a clock that only the provider's waits move
 * (`testing/emulated-time.ts`), so a database is ready without waiting in real time.
 */
import { seedDemoEnvironment, type DemoEnvironment } from "../../emulator/control/demo-environment";
import { serve } from "../plugin/main";
import { LocalApi } from "./local-api";
import { mockedAccount } from "./mocks";

/**
 * Serves the plugin on an emulated account. Its first line is the port, as the plugin's own; the
 * second what the account holds, for the tests (`{"environment": {computeIds, nodebalancerId, diskId}}`).
 */
async function serveMocked(): Promise<{ port: number; environment: DemoEnvironment }> {
  const major = Number(process.versions.node.split(".")[0]);
  if (major < 24) throw new Error(`the plugin needs Node.js 24 or later; the node on PATH is ${process.version}`);
  let environment: DemoEnvironment | undefined;
  const api = await LocalApi.start({ timeScale: 0, seed: ({ control }) => void (environment = seedDemoEnvironment(control)) });
  // No engine address: lines about resources (a database's wait) go to stderr.
  const { port } = await serve([], { account: mockedAccount(api) });
  return { port, environment: environment! };
}

if (require.main === module) {
  serveMocked().then(
    ({ port, environment }) => {
      console.log(String(port));
      console.log(JSON.stringify({ environment }));
      // The plugin ends with the test that started it: when its stdin closes.
      process.stdin.on("end", () => process.exit(0)).resume();
    },
    (error: unknown) => {
      console.error(`pulumi-resource-compute --mocks: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
