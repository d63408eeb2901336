/**
 * The program side of a resource (`provider/classes/resource.ts`): `quietStacks`, which the
 * generated classes call around their registration so Pulumi's per-property promises format no
 * stack traces, restores the program's own limit whatever the registration does, and the resource
 * still gets every output of its spec: registered, or (`unrecordedOutputs`) an Output of
 * `undefined` when it can never record it.
 */
import * as pulumi from "@pulumi/pulumi";
import { DomainRecord } from "../../../provider";
import { PROVIDER_KEY } from "../../../provider/classes/shim";
import { dynamicProps, quietStacks, unrecordedKeys } from "../../../provider/classes/resource";
import { domainRecordSpec } from "../../../provider/resources/domain-record";

const registered: Array<{ type: string; name: string; inputs: Record<string, unknown> }> = [];

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs as Record<string, unknown> });
        return { id: `${args.name}-id`, state: { ...args.inputs, domain: "example.com", fqdn: "www.example.com" } };
      },
      call: () => ({}),
    },
    "project",
    "stack",
    false,
  );
});

describe("quietStacks", () => {
  it("captures no frames until called back, then restores the limit it found", () => {
    const before = Error.stackTraceLimit;
    Error.stackTraceLimit = 17;
    try {
      const done = quietStacks();
      expect(Error.stackTraceLimit).toBe(0);
      expect(new Error("x").stack).toBe("Error: x");
      done();
      expect(Error.stackTraceLimit).toBe(17);
    } finally {
      Error.stackTraceLimit = before;
    }
  });
});

describe("a generated class's registration", () => {
  it("records the program's own line as the resource's source position (no class of ours between it and CustomResource)", () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the module Pulumi's Resource calls, to read what it sends
    const runtime = require("@pulumi/pulumi/runtime/resource") as { registerResource: (...args: unknown[]) => void };
    const register = jest.spyOn(runtime, "registerResource");
    try {
      new DomainRecord("positioned", { domainId: 1, type: "A", name: "at", target: "192.0.2.1" });
      const position = register.mock.calls.find((call) => call[3] === "positioned")![9] as { uri: string; line: number };
      expect(position.uri).toMatch(/\/resource\.test\.[jt]s$/);
    } finally {
      register.mockRestore();
    }
  });

  it("leaves the program's stack limit as it was and registers every output of the spec", async () => {
    const limit = Error.stackTraceLimit;
    const record = new DomainRecord("www", { domainId: 1, type: "A", name: "www", target: "192.0.2.1", ttlSec: 300 });
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error("after").stack).toContain("resource.test");
    // Outputs of fields the program did not give are still Outputs (resolved from the state).
    expect(pulumi.Output.isInstance(record.fqdn)).toBe(true);
    const fqdn = await new Promise((resolve) => record.fqdn.apply(resolve));
    expect(fqdn).toBe("www.example.com");
    const sent = registered.find((r) => r.name === "www")!;
    expect(sent.type).toBe("pulumi-nodejs:dynamic/compute:DomainRecord");
    expect(sent.inputs[PROVIDER_KEY]).toBe("exports.handler=()=>require('pulumi-compute/registry').provider('DomainRecord')");
  });
});

describe("outputs a resource never records (unrecordedOutputs)", () => {
  const valueOf = (output: pulumi.Output<unknown>) => new Promise((resolve) => output.apply(resolve));

  it("are not registered, but are Outputs of undefined that depend on the resource", async () => {
    const record = new DomainRecord("a", { domainId: 1, type: "A", target: "192.0.2.1" });
    expect(unrecordedKeys(domainRecordSpec, { type: "A" })).toEqual([
      "priority",
      "weight",
      "port",
      "protocol",
      "service",
      "tag",
      "adoptId",
      "deleteAdopted",
      "timeouts",
    ]);
    for (const key of ["priority", "weight", "port", "protocol", "service", "tag", "adoptId", "deleteAdopted", "timeouts"] as const) {
      expect(pulumi.Output.isInstance(record[key])).toBe(true);
      expect(await valueOf(record[key])).toBeUndefined();
      expect(record[key]).toBe(record[key]); // made once
    }
    expect(await (record.priority as unknown as { resources(): Promise<Set<unknown>> }).resources()).toEqual(new Set([record]));
    expect(dynamicProps(domainRecordSpec, { type: "A" })).not.toHaveProperty("priority");
  });

  it("keep every field the type uses, and every field the program gives", async () => {
    const mx = new DomainRecord("mx", { domainId: 1, type: "MX", target: "mail", adoptId: 7 });
    expect(unrecordedKeys(domainRecordSpec, { type: "MX", adoptId: 7 })).toEqual([
      "weight",
      "port",
      "protocol",
      "service",
      "tag",
      "deleteAdopted",
      "timeouts",
    ]);
    expect(dynamicProps(domainRecordSpec, { type: "MX", adoptId: 7 })).toHaveProperty("priority");
    expect(await valueOf(mx.adoptId)).toBe(7);
    // A type the program gives as an Output is not known yet: every field is registered.
    expect(unrecordedKeys(domainRecordSpec, { type: pulumi.output("A") })).toEqual(["adoptId", "deleteAdopted", "timeouts"]);
    expect(unrecordedKeys(domainRecordSpec, { type: "A", priority: 5 })).not.toContain("priority");
  });

  it("restores the limit when the registration throws, and the error keeps its message", () => {
    const limit = Error.stackTraceLimit;
    const args = { domainId: 1, type: "A", target: "192.0.2.1", [PROVIDER_KEY]: "x" } as unknown as ConstructorParameters<
      typeof DomainRecord
    >[1];
    expect(() => new DomainRecord("bad", args)).toThrow(`${PROVIDER_KEY} is not an input of DomainRecord`);
    expect(Error.stackTraceLimit).toBe(limit);
  });
});
