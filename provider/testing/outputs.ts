/**
 * Reading a program's Outputs in a unit test. An Output is not a promise; Pulumi keeps its value
 * behind internal promises, and a resource whose registration failed rejects every one of them,
 * which a test runner reports as unhandled unless each one is handled.
 */
import * as pulumi from "@pulumi/pulumi";

/** What every Output has behind its public face (`@pulumi/pulumi`'s `OutputImpl`). */
interface OutputInternals<T> {
  promise(withUnknowns?: boolean): Promise<T>;
  isKnown: Promise<boolean>;
  isSecret: Promise<boolean>;
}

const internals = <T>(output: pulumi.Output<T>) => output as unknown as OutputInternals<T>;

/**
 * The value of an Output, once the resources it comes from are registered (`undefined` while it is
 * unknown, in a preview). Rejects with the registration's error.
 *
 * @example
 * ```ts
 * import { expect, test } from "@jest/globals";
 * import * as compute from "pulumi-compute";
 * import { outputValue } from "pulumi-compute/testing";
 *
 * test("MySQL listens on 3306", async () => {
 *   const db = new compute.MysqlDatabase("db", { label: "app-db", region: "us-iad", type: "g6-nanode-1", engineId: "mysql/8" });
 *   expect(await outputValue(db.port)).toBe(3306);
 * });
 * ```
 */
export function outputValue<T>(output: pulumi.Output<T>): Promise<T> {
  return internals(output).promise();
}

/**
 * Why a resource could not be registered: a check of its spec (what preview refuses, named by
 * input) or the API's refusal of its create. Call it right after the resource's constructor: it
 * handles each of the resource's Outputs, so the failure is this answer and nothing else. Rejects
 * when the resource was registered after all.
 *
 * @example
 * ```ts
 * import { expect, test } from "@jest/globals";
 * import * as compute from "pulumi-compute";
 * import { refusalOf } from "pulumi-compute/testing";
 *
 * test("an engine version the API does not offer is refused", async () => {
 *   const db = new compute.MysqlDatabase("db", { label: "app-db", region: "us-iad", type: "g6-nanode-1", engineId: "mysql/8.0.99" });
 *   expect((await refusalOf(db)).message).toMatch(/engineId/);
 * });
 * ```
 */
export function refusalOf(resource: pulumi.Resource): Promise<Error> {
  for (const descriptor of Object.values(Object.getOwnPropertyDescriptors(resource))) {
    // Plain values only: an output made on first read (one the resource never records) is left unmade.
    if (!pulumi.Output.isInstance(descriptor.value)) continue;
    const output = internals(descriptor.value as pulumi.Output<unknown>);
    output.isKnown.catch(() => undefined);
    output.isSecret.catch(() => undefined);
  }
  return outputValue(resource.urn).then(
    (urn) => {
      throw new Error(`${urn} was registered: nothing refused it`);
    },
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  );
}
