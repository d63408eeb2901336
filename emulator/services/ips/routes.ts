/**
 * `/networking/ips*` and `/networking/ipv6/*` (spec "Networking: IP addresses, IPv6, VLANs").
 * Scopes as the spec's table (`ips:read` of range view means read_only, api-facts P5-1); the two
 * spellings of assign and share (`/networking/ips/…`, `/networking/ipv4/…`) behave the same.
 * Restricted users act on an address through their grant on the instance holding it.
 */
import type { IncomingMessage } from "node:http";
import { filterableFields } from "../../../sdk/core/schema";
import { IP_ENDPOINTS, IP_REASONS, IPV6_ENDPOINTS, Ipv6Pool, Ipv6Range } from "../../../sdk/resources/ips";
import { ApiFailure, REASONS, badRequest, forbidden, found } from "../../core/errors";
import { route } from "../../core/route-table";
import type { RouteContext, RouteSpec } from "../../core/routes";
import { allPools } from "./address-plan";
import { findAddress, findRange, listedAddresses, visibleRanges } from "./store";
import { renderAddress, renderRange, renderRangeCreated, renderRangeView } from "./render";
import { allocateAddress, applyMoves, createRange, deleteRange, setRdns, setShared } from "./operations";
import { checkAllocate, checkRangeCreate, checkRangeDelete, checkRdns, resolveAssign, resolveShare } from "./rules";
import { requireRead, requireReadWrite } from "./rules";

export const IP_FILTERABLE = ["address", "compute_id", "public", "rdns", "region", "type"] as const;
export const IPV6_POOL_FILTERABLE = filterableFields(Ipv6Pool);
export const IPV6_RANGE_FILTERABLE = filterableFields(Ipv6Range);

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

type AssignEndpoint = typeof IP_ENDPOINTS.assign | typeof IP_ENDPOINTS.assignViaIpv4;
type ShareEndpoint = typeof IP_ENDPOINTS.share | typeof IP_ENDPOINTS.shareViaIpv4;

/** Assign and share have two spellings (`/networking/ips/…`, `/networking/ipv4/…`) that behave the same. */
const assign = (ctx: RouteContext<AssignEndpoint>) => {
  applyMoves(ctx.account, resolveAssign(ctx.account, ctx.user, ctx.body()));
};
const share = (ctx: RouteContext<ShareEndpoint>) => {
  const { compute, addresses } = resolveShare(ctx.account, ctx.user, ctx.body());
  setShared(compute, addresses);
};

export const ipRoutes: RouteSpec[] = [
  route(IP_ENDPOINTS.list, { filterable: IP_FILTERABLE }, async (ctx) => {
    const skip = await skipIpv6Rdns(ctx);
    return listedAddresses(ctx.account, ctx.user).map((p) => renderAddress(ctx.account, p, { listing: true, skipIpv6Rdns: skip }));
  }),
  route(IP_ENDPOINTS.allocate, (ctx) => {
    const body = ctx.body();
    const compute = checkAllocate(ctx.account, ctx.user, body);
    return renderAddress(ctx.account, allocateAddress(ctx.actor, compute, body.public), { listing: false });
  }),
  route(IP_ENDPOINTS.assign, assign),
  route(IP_ENDPOINTS.assignViaIpv4, assign),
  route(IP_ENDPOINTS.share, share),
  route(IP_ENDPOINTS.shareViaIpv4, share),
  route(IP_ENDPOINTS.get, (ctx) => {
    const placed = addressOf(ctx);
    requireRead(ctx.user, placed.compute);
    return renderAddress(ctx.account, placed, { listing: false });
  }),
  route(IP_ENDPOINTS.update, (ctx) => {
    const placed = addressOf(ctx);
    requireReadWrite(ctx.user, placed.compute);
    const { rdns } = ctx.body();
    setRdns(ctx.actor, placed, checkRdns(ctx.account, placed, rdns, ctx.actor.runtime.clock.nowMs()));
    return renderAddress(ctx.account, placed, { listing: false });
  }),
  route(IPV6_ENDPOINTS.pools.list, { filterable: IPV6_POOL_FILTERABLE }, () => allPools()),
  route(IPV6_ENDPOINTS.ranges.list, { filterable: IPV6_RANGE_FILTERABLE }, (ctx) => visibleRanges(ctx.account, ctx.user).map(renderRange)),
  route(IPV6_ENDPOINTS.ranges.create, (ctx) => {
    const body = ctx.body();
    const compute = checkRangeCreate(ctx.account, ctx.user, body);
    return renderRangeCreated(createRange(ctx.actor, compute, body.prefix_length));
  }),
  route(IPV6_ENDPOINTS.ranges.get, (ctx) => {
    const range = rangeOf(ctx);
    // A restricted user sees a range through a grant on an instance it is routed to or shared with.
    if (!visibleRanges(ctx.account, ctx.user).includes(range)) throw forbidden();
    return renderRangeView(ctx.account, range);
  }),
  route(IPV6_ENDPOINTS.ranges.delete, (ctx) => {
    const range = rangeOf(ctx);
    checkRangeDelete(ctx.account, ctx.user, range);
    deleteRange(ctx.actor, range);
  }),
];
