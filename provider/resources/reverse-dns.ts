/**
 * `compute:ReverseDns`: the reverse DNS (PTR) name of one IP address. The address itself belongs
 * to an instance and is not created here: "creating" sets the name, deleting restores the
 * platform's default (`rdns: null`: `a-b-c-d.ip.computeusercontent.com` for a public IPv4 address,
 * none for IPv6). The API checks forward DNS: an A/AAAA record for the name must already resolve
 * to the address (make the program's `DomainRecord` a dependency). A new record takes a while to
 * resolve, so the API's refusal for want of forward DNS is tried again, with a status saying what
 * it waits for, until the operation's deadline (`timeouts`), which then names the last refusal.
 *
 * Natural spellings never diff: names compare without case and final dot (the API stores
 * `www.example.com` for `WWW.Example.com.`), addresses in canonical form (`2001:DB8::1` is
 * `2001:db8::1`).
 */
import { IP_REASONS, IpAddressText, Rdns, canonicalRdns, type IpAddress, type IpUpdateRequest } from "../../sdk/resources/ips";
import { ApiError } from "../../sdk/core/errors";
import { canonicalIp } from "../../sdk/core/net";
import type { ProviderContext } from "../engine/context";
import { GaveUpWaiting, explain } from "../engine/engine";
import { resourceSpec } from "../engine/spec";
import { waitingText } from "../engine/status";
import { MINUTE } from "./common";

/** Between two tries of a name whose forward DNS does not resolve yet. */
const FORWARD_DNS_RETRY_MS = 3_000;

/**
 * PUTs the name, trying again while the API refuses it for want of forward DNS (a record just
 * made that does not resolve yet); any other refusal fails at once.
 */
async function putRdns(ctx: ProviderContext, op: string, address: string, body: IpUpdateRequest, signal: AbortSignal): Promise<IpAddress> {
  const started = ctx.time.now();
  for (;;) {
    try {
      return await ctx.client().networking.ips.update(address, body, { signal });
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 400 && error.hasReason(IP_REASONS.rdnsNoForward))) throw error;
      const wait = { what: `reverse DNS of ${address}`, until: "forward DNS" };
      ctx.status(waitingText(wait, `${String(body.rdns)} does not resolve to ${address} yet`, ctx.time.now() - started), wait.what);
      try {
        await ctx.time.sleep(FORWARD_DNS_RETRY_MS, signal);
      } catch {
        throw new GaveUpWaiting(explain(reverseDnsSpec, op, error).message, { cause: error });
      }
    }
  }
}

const normalizeAddress = (value: unknown): unknown => (typeof value === "string" ? (canonicalIp(value) ?? value) : value);
const normalizeRdns = (value: unknown): unknown => (typeof value === "string" ? canonicalRdns(value) : value);

/** The address record, with the canonical address as its id. */
type AddressWithId = IpAddress & { id: string };
const withId = (record: IpAddress): AddressWithId => ({ ...record, id: canonicalIp(record.address) ?? record.address });

export const reverseDnsSpec = resourceSpec<AddressWithId, IpUpdateRequest, IpUpdateRequest>()({
  name: "ReverseDns",
  noun: "reverse DNS",
  description:
    "The reverse DNS name of an IP address; deleting it restores the platform default. Waits, within its `timeouts`, for a new A/AAAA record of the name to resolve.",
  adoptIdForm: { example: '"198.51.100.10"', what: "the IP address" },
  example: [
    "// 198.51.100.10: an address of one of the account's instances.",
    'const www = new compute.DomainRecord("www", { domainId: zone.id, type: "A", name: "www", target: "198.51.100.10" });',
    'new compute.ReverseDns("www", { address: "198.51.100.10", rdns: "www.example.com" }, { dependsOn: www });',
  ].join("\n"),
  inputs: {
    address: {
      schema: IpAddressText,
      send: "never",
      required: true,
      replaceOnChange: true,
      normalize: normalizeAddress,
      description: "The IPv4 or IPv6 address (any spelling). Changing it replaces the resource.",
    },
    rdns: {
      schema: Rdns.unwrap(),
      required: true,
      normalize: normalizeRdns,
      description:
        "The host name, such as `www.example.com` (case and a final dot do not matter). Forward DNS must resolve it to the address.",
    },
  },
  outputs: {
    computeId: { description: "The instance holding the address.", nullWhen: "Null when no instance holds the address." },
    region: { description: "Region of the address." },
    type: { description: "`ipv4` or `ipv6`." },
  },
  timeouts: { create: 2 * MINUTE, update: 2 * MINUTE, delete: 2 * MINUTE },
  endpoints: { read: ["networking.ips.get"], write: ["networking.ips.update"] },
  hooks: {
    // PUT is idempotent: the client may repeat it after an ambiguous failure, so no lookup is needed.
    create: async ({ ctx, body, inputs, signal }) => withId(await putRdns(ctx, "create", inputs.address, body, signal)),
    read: async ({ ctx, id, signal }) => withId(await ctx.client().networking.ips.get(id, { signal })),
    update: async ({ ctx, id, body, signal }) => withId(await putRdns(ctx, "update", id, body, signal)),
    // The address stays; its name goes back to the platform default.
    delete: ({ ctx, id, signal }) => ctx.client().networking.ips.update(id, { rdns: null }, { signal }),
  },
});
