/**
 * The IP address and IPv6 recordings (`ip.*`, `ipv6_range.*`, `unrecorded/ipv6_pool.*`, and the
 * recorded IP errors) replayed. Recordings scrub IPv6 addresses to `1234::5678`, so replays that
 * need a real range or SLAAC address use the emulator's own.
 */
import { IPV6_ENDPOINTS } from "../../../../sdk/resources/ips";
import { ok, type TestEmulator } from "../../helpers";
import { replayModule } from "../../replay";

/** Seeds an instance (`extra`: the seed's other fields). */
export const seeded = (emu: TestEmulator, label: string, region: string, extra: Record<string, unknown> = {}) =>
  emu.control.seedCompute({ label, region, ...extra } as Parameters<TestEmulator["control"]["seedCompute"]>[0]);

/**
 * Differences the API's own documentation explains: the hand-written pool recordings omit
 * `prefix`, which api-facts P2-5 (from the OpenAPI description) lists on every pool.
 */
const POOL_PREFIX = { list: ["$.data[0].prefix: not in the recording"], get: ["$.prefix: not in the recording"] };

export const ipReplays = replayModule({
  name: "ips",
  replays: (emu) => {
    const seed = (label: string, region: string, extra: Record<string, unknown> = {}) => seeded(emu, label, region, extra);
    /** A range routed to a fresh instance in `region`; returns its address (without the length). */
    const range = async (region = "eu-west"): Promise<{ address: string; prefix: number; computeId: number }> => {
      const c = seed("ranged", region);
      const created = await ok(emu.post("/networking/ipv6/ranges", { compute_id: c.id, prefix_length: 64 }));
      return { address: created.range.split("/")[0], prefix: 64, computeId: c.id };
    };
    const web = (ipv4: string) => seed("web", "ap-west", { ipv4: [ipv4] });
    return {
      "ip.list.json": () => (web("194.195.119.40"), emu.get("/networking/ips")),
      "ip.list.skip_ipv6_rdns.json": () => (web("194.195.119.40"), emu.get("/networking/ips", { query: { skip_ipv6_rdns: "true" } })),
      "ip.get.json": (f) => (web("194.195.113.99"), emu.get(f.path)),
      "ip.update.json": (f) => (web("194.195.113.106"), emu.put(f.path, f.request)),
      "ip.assign.json": async (f) => {
        const { address, prefix } = await range("ap-west");
        const target = seed("target", "ap-west", { id: f.request.assignments[0].compute_id });
        return emu.post(f.path, { region: f.request.region, assignments: [{ address: `${address}/${prefix}`, compute_id: target.id }] });
      },
      "ip.share.json": (f) => {
        seed("holder", "us-east", { ipv4: f.request.ips });
        seed("sharer", "us-east", { id: f.request.compute_id });
        return emu.post(f.path, f.request);
      },
      "ipv6_range.create.json": (f) => (seed("web", "eu-west", { id: f.request.compute_id }), emu.post(f.path, f.request)),
      "ipv6_range.get.json": async () => emu.get(`/networking/ipv6/ranges/${(await range()).address}`),
      "ipv6_range.list.json": async () => (await range(), emu.get("/networking/ipv6/ranges")),
      "ipv6_range.delete.json": async () => emu.del(`/networking/ipv6/ranges/${(await range()).address}`),
      "unrecorded/ipv6_pool.list.json": {
        replay: () => emu.get("/networking/ipv6/pools", { query: { page: 1 } }),
        documented: POOL_PREFIX.list,
      },
      "unrecorded/ipv6_pool.get.json": {
        replay: async () => {
          const page = await ok(emu.get("/networking/ipv6/pools", { headers: { "X-Filter": JSON.stringify({ region: "us-east" }) } }));
          return { status: 200, headers: {}, body: page.data[0], text: "" };
        },
        documented: POOL_PREFIX.get,
        elsewhere: {
          endpoint: IPV6_ENDPOINTS.pools.list,
          why: "the pool view is not an endpoint of the spec; its record is the list's item",
        },
      },
      "error.400.ip_assign_not_found.json": (f) => {
        seed("web", "ap-west", { id: f.request.assignments[0].compute_id });
        return emu.post(f.path, f.request);
      },
      "error.400.ip_assign_invalid_compute.json": (f) => emu.post(f.path, f.request),
      // The recording carries a later-API `reserved` key, which a 4.174 body may not; the rest is replayed.
      "error.400.ip_rdns_invalid.json": (f) => {
        web("192.0.2.0");
        const { reserved: _later, ...body } = f.request;
        return emu.put(f.path, body);
      },
      "error.404.ip.json": (f) => emu.get(f.path),
    };
  },
});
