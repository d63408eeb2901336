/**
 * `outputForm`, the one helper behind every `…Output` data function, against the emulator over
 * HTTP: Inputs in (plain values, promises, Outputs), the function's result out as an Output; a
 * secret argument or a secret inside the result makes the whole Output secret.
 */
import * as pulumi from "@pulumi/pulumi";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { outputForm, type FunctionOptions } from "../../../provider/functions/client";
import { getRegion, getRegionOutput, getRegionsOutput } from "../../../provider/functions/regions";

let emulator: RunningEmulator;
let options: FunctionOptions;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  options = { apiUrl: emulator.url, token: emulator.token };
});
afterAll(() => emulator.close());

/** An Output's value, outside a Pulumi program (where every Output is known). */
const valueOf = <T>(output: pulumi.Output<T>) => new Promise<T>((resolve) => output.apply(resolve));

test("an Output form answers an Output of what the plain function answers, from plain, promised or Output arguments", async () => {
  const plain = await getRegion({ id: "us-iad" }, options);
  for (const id of ["us-iad", Promise.resolve("us-iad"), pulumi.output("us-iad")]) {
    const region = getRegionOutput({ id }, options);
    expect(pulumi.Output.isInstance(region)).toBe(true);
    expect(await valueOf(region)).toEqual(plain);
    expect(await pulumi.isSecret(region)).toBe(false);
  }
  expect((await valueOf(getRegionsOutput(undefined, options))).length).toBeGreaterThan(1); // its arguments may be left out, as the plain one's
});

test("a secret argument makes a secret result", async () => {
  const region = getRegionOutput({ id: pulumi.secret("us-iad") }, options);
  expect(await pulumi.isSecret(region)).toBe(true);
  expect(await valueOf(region.id)).toBe("us-iad");
});

test("a result holding a secret Output is one secret Output, its nested values plain within it", async () => {
  const lookup = outputForm(async (args: { name: string }) => ({ name: args.name, password: pulumi.secret(`${args.name}-pw`) }));
  const found = lookup({ name: pulumi.output("db") });
  expect(await pulumi.isSecret(found)).toBe(true);
  expect(await valueOf(found)).toEqual({ name: "db", password: "db-pw" });
  expect(await pulumi.isSecret(found.password)).toBe(true);
});
