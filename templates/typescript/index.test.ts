/**
 * The program's tests (`npm test`), one of each kind:
 * - a unit test of the plan, under computeMocks: what the program declares and what it reads back,
 *   answered as an `up` against the API would answer, in a second and without the engine;
 * - an integration test through the Pulumi engine on an emulated account: the cloud after `up`, a
 *   change made behind Pulumi's back, the drift `refresh` sees and `up` repairs, and `destroy`.
 */
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import * as pulumi from "@pulumi/pulumi";
import { computeMocks, emulatedStack, outputValue } from "pulumi-compute/testing";

describe("the plan, under computeMocks", () => {
  const mocks = computeMocks();
  let program: typeof import("./index");

  beforeAll(async () => {
    await pulumi.runtime.setMocks(mocks, "my-infra", "test", false);
    // Loaded after the mocks are set, so the program registers its resources with them (a static
    // import would run it first).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    program = require("./index");
  });
  afterAll(() => mocks.dispose());

  test("the database's primary host is a name, MySQL listens on 3306, and the password is a secret", async () => {
    expect(await outputValue(program.dbHost)).toMatch(/^\S+\.\S+$/);
    expect(await outputValue(program.dbPort)).toBe(3306);
    expect(await pulumi.isSecret(program.dbPassword)).toBe(true);
  });
});

describe("the stack, through the Pulumi engine on an emulated account", () => {
  test("up makes it; a label changed by hand is drift, which refresh sees and up repairs; destroy leaves nothing", async () => {
    await using stack = await emulatedStack(__dirname);
    await stack.up();
    const [vpc] = await stack.client.vpcs.listAll();
    expect(vpc.label).toBe("app-net");

    await stack.client.vpcs.update(vpc.id, { label: "changed-by-hand" });
    const refresh = await stack.refresh();
    expect(refresh.summary.resourceChanges).toMatchObject({ update: 1 });
    await stack.up();
    expect((await stack.client.vpcs.get(vpc.id)).label).toBe("app-net");

    await stack.destroy();
    expect(await stack.client.vpcs.listAll()).toEqual([]);
    expect(await stack.client.computes.instances.listAll()).toEqual([]);
    expect(await stack.client.networking.firewalls.listAll()).toEqual([]);
    expect(await stack.client.domains.listAll()).toEqual([]);
    expect(await stack.client.databases.mysql.listAll()).toEqual([]);
  }, 300_000);
});
