/**
 * The program side of a resource (`provider/engine/resource.ts`): `quietStacks`, which the
 * generated classes call around their registration so Pulumi's per-property promises format no
 * stack traces, restores the program's own limit whatever the registration does, and the resource
 * still gets every output of its spec.
 */
import * as pulumi from "@pulumi/pulumi";
import { DomainRecord } from "../../../provider";
import { PROVIDER_KEY } from "../../../provider/shim";
import { quietStacks } from "../../../provider/engine/resource";

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
  it("leaves the program's stack limit as it was and registers every output of the spec", async () => {
    const limit = Error.stackTraceLimit;
    const record = new DomainRecord("www", { domainId: 1, type: "A", name: "www", target: "192.0.2.1", ttlSec: 300 });
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error("after").stack).toContain("resource.test");
    // Outputs of fields the program did not give are still Outputs (resolved from the state).
    expect(pulumi.Output.isInstance(record.fqdn)).toBe(true);
    expect(pulumi.Output.isInstance(record.priority)).toBe(true);
    const fqdn = await new Promise((resolve) => record.fqdn.apply(resolve));
    expect(fqdn).toBe("www.example.com");
    const sent = registered.find((r) => r.name === "www")!;
    expect(sent.type).toBe("pulumi-nodejs:dynamic/compute:DomainRecord");
    expect(sent.inputs[PROVIDER_KEY]).toBe("exports.handler=()=>require('pulumi-compute/registry').provider('DomainRecord')");
  });

  it("restores the limit when the registration throws, and the error keeps its message", () => {
    const limit = Error.stackTraceLimit;
    const args = { domainId: 1, type: "A", target: "192.0.2.1", [PROVIDER_KEY]: "x" } as unknown as ConstructorParameters<typeof DomainRecord>[1];
    expect(() => new DomainRecord("bad", args)).toThrow(`${PROVIDER_KEY} is not an input of DomainRecord`);
    expect(Error.stackTraceLimit).toBe(limit);
  });
});
