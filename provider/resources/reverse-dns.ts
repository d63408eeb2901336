/**
 * `compute:ReverseDns`: the reverse DNS (PTR) name of one IP address. The address itself belongs
 * to an instance and is not created here: "creating" sets the name, deleting restores the
 * platform's default (`rdns: null`: `a-b-c-d.ip.computeusercontent.com` for a public IPv4 address,
 * none for IPv6). The API checks forward DNS: an A/AAAA record for the name must already point at
 * the address (make the program's `DomainRecord` a dependency).
 *
 * Natural spellings never diff: names compare without case and final dot (the API stores
 * `www.example.com` for `WWW.Example.com.`), addresses in canonical form (`2001:DB8::1` is
 * `2001:db8::1`).
 */
import * as pulumi from "@pulumi/pulumi";
import { IpAddressText, Rdns, canonicalRdns, type IpAddress } from "../../sdk/resources/ips";
import { canonicalIp } from "../../sdk/core/net";
import { TYPE_MODULE, dynamicProps, resourceOptions } from "../engine/resource";
import type { ApiObject, ResourceSpec } from "../engine/spec";
import { providerFor } from "../shim";
import { MINUTE } from "./common";

const normalizeAddress = (value: unknown): unknown => (typeof value === "string" ? canonicalIp(value) ?? value : value);
const normalizeRdns = (value: unknown): unknown => (typeof value === "string" ? canonicalRdns(value) : value);

/** The address record, with the canonical address as its id. */
const withId = (record: IpAddress): ApiObject => ({ ...record, id: canonicalIp(record.address) ?? record.address });

export const reverseDnsSpec = {
  name: "ReverseDns",
  noun: "reverse DNS",
  description: "The reverse DNS name of an IP address; deleting it restores the platform default.",
  inputs: {
    address: {
      schema: IpAddressText,
      required: true,
      replaceOnChange: true,
      normalize: normalizeAddress,
      description: "The IPv4 or IPv6 address (any spelling). Changing it replaces the resource.",
    },
    rdns: {
      schema: Rdns.unwrap(),
      required: true,
      normalize: normalizeRdns,
      description: "The host name, such as `www.example.com` (case and a final dot do not matter). Forward DNS must resolve it to the address.",
    },
  },
  outputs: {
    computeId: { description: "The instance holding the address." },
    region: { description: "Region of the address." },
    type: { description: "`ipv4` or `ipv6`." },
  },
  timeouts: { create: 2 * MINUTE, update: 2 * MINUTE, delete: 2 * MINUTE },
  hooks: {
    // PUT is idempotent: the client may repeat it after an ambiguous failure, so no lookup is needed.
    create: async (ctx, inputs, signal) =>
      withId(await ctx.client().networking.ips.update(inputs.address as string, { rdns: inputs.rdns as string }, { signal })),
    read: async (ctx, id, _state, signal) => withId(await ctx.client().networking.ips.get(id, { signal })),
    update: async (ctx, id, _olds, news, _changed, signal) =>
      withId(await ctx.client().networking.ips.update(id, { rdns: news.rdns as string }, { signal })),
    // The address stays; its name goes back to the platform default.
    delete: async (ctx, id, _state, signal) => {
      await ctx.client().networking.ips.update(id, { rdns: null }, { signal });
    },
  },
} satisfies ResourceSpec;

/** Constructor arguments, documented per input (generated from the spec: `provider/args.generated.ts`). */
export type ReverseDnsArgs = import("../args.generated").ReverseDnsArgs;

/**
 * The reverse DNS name of an IP address.
 *
 * ```ts
 * const www = new compute.DomainRecord("www", { domainId: zone.id, type: "A", name: "www", target: "203.0.113.10" });
 * new compute.ReverseDns("www", { address: "203.0.113.10", rdns: "www.example.com" }, { dependsOn: www });
 * ```
 */
export class ReverseDns extends pulumi.dynamic.Resource {
  /** The address, canonical. */
  declare readonly address: pulumi.Output<string>;
  /** The reverse DNS name as the API stores it (lower case, no final dot). */
  declare readonly rdns: pulumi.Output<string>;
  /** The instance holding the address. */
  declare readonly computeId: pulumi.Output<number | null>;
  /** Region of the address. */
  declare readonly region: pulumi.Output<string>;
  /** `ipv4` or `ipv6`. */
  declare readonly type: pulumi.Output<string>;

  constructor(name: string, args: ReverseDnsArgs, opts?: pulumi.CustomResourceOptions) {
    super(providerFor(reverseDnsSpec.name), name, dynamicProps(reverseDnsSpec, args), resourceOptions(reverseDnsSpec, opts), TYPE_MODULE, reverseDnsSpec.name);
  }
}
