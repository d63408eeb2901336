/**
 * `/networking/ips*` and `/networking/ipv6/*` (spec "Networking: IP addresses, IPv6, VLANs").
 * Scopes as the spec's table (`ips:read` of range view means read_only, api-facts P5-1); the two
 * spellings of assign and share (`/networking/ips/…`, `/networking/ipv4/…`) behave the same.
 * Restricted users act on an address through their grant on the instance holding it.
 */
import type { IncomingMessage } from "node:http";
import { IP_REASONS, IpAddress, IpAllocateRequest, IpAssignRequest, IpShareRequest, IpUpdateRequest } from "../../../sdk/resources/ips";
import { Ipv6Pool, Ipv6Range, Ipv6RangeCreateRequest, Ipv6RangeCreated, Ipv6RangeView } from "../../../sdk/resources/ips";
import { ApiFailure, REASONS, badRequest, forbidden, found } from "../../core/errors";
import { routeTable } from "../../core/route-table";
import type { RouteContext, RouteSpec } from "../../core/routes";
import { allPools } from "./address-plan";
import { findAddress, findRange, listedAddresses, visibleRanges } from "./store";
import { renderAddress, renderRange, renderRangeCreated, renderRangeView } from "./render";
import { allocateAddress, applyMoves, createRange, deleteRange, setRdns, setShared } from "./operations";
import { checkAllocate, checkRangeCreate, checkRangeDelete, checkRdns, resolveAssign, resolveShare } from "./rules";
import { requireRead, requireReadWrite } from "./rules";

export const IP_FILTERABLE = ["address", "compute_id", "public", "rdns", "region", "type"] as const;
export const IPV6_POOL_FILTERABLE = ["range", "prefix", "region", "route_target"] as const;
export const IPV6_RANGE_FILTERABLE = ["range", "prefix", "region", "route_target"] as const;


/** The address of the path, or 404. */
const addressOf = (ctx: RouteContext) => found(findAddress(ctx.account, ctx.param("address")));
/** The range of the path (its address, any spelling, no prefix length), or 404. */
const rangeOf = (ctx: RouteContext) => found(findRange(ctx.account, ctx.param("range")));

/**
 * `skip_ipv6_rdns`, listed by the spec as a body field of a GET: read from the query string, else
 * from a JSON body (fastify does not parse GET bodies, so it is read here).
 */
async function skipIpv6Rdns(ctx: RouteContext): Promise<boolean> {
  const query = ctx.request.query as Record<string, string | string[] | undefined>;
  const fromQuery = query["skip_ipv6_rdns"];
  const given = Array.isArray(fromQuery) ? fromQuery.at(-1) : fromQuery;
  const value: unknown = fromQuery !== undefined ? given : (await readGetBody(ctx.request.raw))?.["skip_ipv6_rdns"];
  if (value === undefined) return false;
  if (value === true || value === "true" || value === "1") return true;
  if (value === false || value === "false" || value === "0") return false;
  throw badRequest(IP_REASONS.skipIpv6RdnsInvalid, "skip_ipv6_rdns");
}

async function readGetBody(raw: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const length = raw.headers["content-length"];
  if (raw.headers["transfer-encoding"] === undefined && (length === undefined || length === "0")) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of raw) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    throw new ApiFailure(400, REASONS.malformedJson);
  }
}

const api = routeTable("ips", {
  read: ["ips:read_only"],
  write: ["ips:read_write"],
  writeComputes: ["ips:read_write", "computes:read_write"],
});

const ADDRESS = "/networking/ips/{address}";
const RANGES = "/networking/ipv6/ranges";
const RANGE = `${RANGES}/{range}`;
const address = { response: IpAddress };
const addressList = { item: IpAddress, filterable: IP_FILTERABLE };
/** Assign and share have two spellings (`/networking/ips/…`, `/networking/ipv4/…`) that behave the same. */
const SPELLINGS = [{ area: "ips", note: "" }, { area: "ipv4", note: " (ipv4 path)" }];

export const ipRoutes: RouteSpec[] = [
  api.read.list("/networking/ips", "IP addresses of the account, private ones excluded", addressList, async (ctx) => {
    const skip = await skipIpv6Rdns(ctx);
    return listedAddresses(ctx.account, ctx.user).map((p) => renderAddress(ctx.account, p, { listing: true, skipIpv6Rdns: skip }));
  }),
  api.writeComputes.post("/networking/ips", "Allocate an IPv4 address to an instance enabled for additional addresses", address, (ctx) => {
    const body = ctx.body(IpAllocateRequest);
    const compute = checkAllocate(ctx.account, ctx.user, body);
    return renderAddress(ctx.account, allocateAddress(ctx.actor, compute, body.public), { listing: false });
  }),
  ...SPELLINGS.map(({ area, note }) =>
    api.writeComputes.post(`/networking/${area}/assign`, `Assign addresses and IPv6 ranges to instances${note}`, {}, (ctx) => {
      applyMoves(ctx.account, resolveAssign(ctx.account, ctx.user, ctx.body(IpAssignRequest)));
    }),
  ),
  ...SPELLINGS.map(({ area, note }) =>
    api.writeComputes.post(`/networking/${area}/share`, `Set the addresses an instance shares for failover${note}`, {}, (ctx) => {
      const { compute, addresses } = resolveShare(ctx.account, ctx.user, ctx.body(IpShareRequest));
      setShared(compute, addresses);
    }),
  ),
  api.read.get(ADDRESS, "One IP address", address, (ctx) => {
    const placed = addressOf(ctx);
    requireRead(ctx.user, placed.compute);
    return renderAddress(ctx.account, placed, { listing: false });
  }),
  api.write.put(ADDRESS, "Set an address's reverse DNS (null restores the default); forward DNS must exist", address, (ctx) => {
    const placed = addressOf(ctx);
    requireReadWrite(ctx.user, placed.compute);
    const { rdns } = ctx.body(IpUpdateRequest);
    setRdns(ctx.actor, placed, checkRdns(ctx.account, placed, rdns));
    return renderAddress(ctx.account, placed, { listing: false });
  }),
  api.read.list("/networking/ipv6/pools", "IPv6 pools", { item: Ipv6Pool, filterable: IPV6_POOL_FILTERABLE }, () => allPools()),
  api.read.list(RANGES, "IPv6 ranges of the account", { item: Ipv6Range, filterable: IPV6_RANGE_FILTERABLE }, (ctx) =>
    visibleRanges(ctx.account, ctx.user).map(renderRange),
  ),
  api.writeComputes.post(
    RANGES,
    "Create an IPv6 range routed to an instance (compute_id) or a SLAAC address (route_target)",
    { response: Ipv6RangeCreated },
    (ctx) => {
      const body = ctx.body(Ipv6RangeCreateRequest);
      const compute = checkRangeCreate(ctx.account, ctx.user, body);
      return renderRangeCreated(createRange(ctx.actor, compute, body.prefix_length));
    },
  ),
  api.read.get(RANGE, "One IPv6 range", { response: Ipv6RangeView }, (ctx) => {
    const range = rangeOf(ctx);
    // A restricted user sees a range through a grant on an instance it is routed to or shared with.
    if (!visibleRanges(ctx.account, ctx.user).includes(range)) throw forbidden();
    return renderRangeView(ctx.account, range);
  }),
  api.write.delete(RANGE, "Delete an IPv6 range that is not shared", {}, (ctx) => {
    const range = rangeOf(ctx);
    checkRangeDelete(ctx.account, ctx.user, range);
    deleteRange(ctx.actor, range);
  }),
];
