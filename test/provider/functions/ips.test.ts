/**
 * `getIps`, `getIpv6Pools`, `getIpv6Ranges`, `getIpv6Range` against the emulator over HTTP:
 * camelCase records, filters, one range with its sharing, an Output form.
 */
import * as pulumi from "@pulumi/pulumi";
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { ComputeClient } from "../../../sdk/client";
import { getIps, getIpsOutput, getIpv6Pools, getIpv6Range, getIpv6RangeOutput, getIpv6Ranges } from "../../../provider/functions/ips";

let emulator: RunningEmulator;
let options: { apiUrl: string; token: string };

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  options = { apiUrl: emulator.url, token: emulator.token };
});
afterAll(() => emulator.close());
beforeEach(() => emulator.control.reset());

test("getIps lists the account's addresses in camelCase, narrowed by instance, type, address, public and region", async () => {
  const a = emulator.control.seedCompute({ label: "a", region: "us-iad", ipv4: ["198.51.100.1"] });
  emulator.control.seedCompute({ label: "b", region: "us-ord", ipv4: ["198.51.100.2"] });
  const all = await getIps({}, options);
  expect(all).toHaveLength(4);
  expect(all[0]).toEqual({
    address: "198.51.100.1",
    gateway: "198.51.100.1",
    subnetMask: "255.255.255.0",
    prefix: 24,
    type: "ipv4",
    public: true,
    rdns: "198-51-100-1.ip.computeusercontent.com",
    computeId: a.id,
    region: "us-iad",
    vpcNat11: null,
  });
  expect((await getIps({ computeId: String(a.id) }, options)).map((ip) => ip.address)).toEqual(["198.51.100.1", a.ipv6]);
  expect((await getIps({ type: "ipv6", region: "us-iad" }, options)).map((ip) => ip.address)).toEqual([a.ipv6]);
  expect((await getIps({ address: a.ipv6!.toUpperCase() }, options)).map((ip) => ip.computeId)).toEqual([a.id]);
  expect(await getIps({ public: false }, options)).toEqual([]);
});

test("getIpv6Pools and getIpv6Ranges, optionally of one region", async () => {
  const a = emulator.control.seedCompute({ label: "a", region: "us-iad" });
  expect(await getIpv6Pools({ region: "us-iad" }, options)).toEqual([
    { range: "2001:db8:4:ffff::", prefix: 124, region: "us-iad", routeTarget: "2001:db8:4:ffff::f" },
  ]);
  expect(await getIpv6Ranges({}, options)).toEqual([]);
  const client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  await client.networking.ipv6.ranges.create({ prefix_length: 64, compute_id: a.id });
  await client.close();
  expect(await getIpv6Ranges({ region: "us-iad" }, options)).toEqual([
    { range: "2001:db8:4:8000::", prefix: 64, region: "us-iad", routeTarget: a.ipv6 },
  ]);
  expect(await getIpv6Ranges({ region: "us-ord" }, options)).toEqual([]);
});

test("a token without the scope a data function needs: the error names the function, the scope, the token's scopes and what to do", async () => {
  const { token } = emulator.control.createToken({ scopes: ["vpc:read_write"] });
  await expect(getIps({}, { ...options, token })).rejects.toThrow(
    "getIps: the API refused it: the token lacks the OAuth scope ips:read_only (this call needs ips:read_only; the token has vpc:read_write). " +
      "Give the stack a token that has it: `pulumi config set --secret compute:token <token>` (or COMPUTE_TOKEN); " +
      "`pulumi-compute scopes` lists every scope the stack needs (HTTP 401 GET /networking/ips?page=1&page_size=500)",
  );
});

test("getIpv6Range finds one range by its address, with or without its prefix length, with isBgp and the instances sharing it", async () => {
  const a = emulator.control.seedCompute({ label: "a", region: "us-iad" });
  const b = emulator.control.seedCompute({ label: "b", region: "us-iad" });
  const client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  await client.networking.ipv6.ranges.create({ prefix_length: 64, compute_id: a.id });
  expect(await getIpv6Range({ range: "2001:db8:4:8000::/64" }, options)).toEqual({
    range: "2001:db8:4:8000::",
    prefix: 64,
    region: "us-iad",
    isBgp: false,
    computes: [a.id],
  });
  await client.networking.ips.share({ compute_id: b.id, ips: ["2001:db8:4:8000::"] });
  await client.close();
  const shared = await getIpv6Range({ range: "2001:0db8:0004:8000:0000::" }, options);
  expect(shared).toMatchObject({ range: "2001:db8:4:8000::", isBgp: true });
  expect([...shared.computes].sort()).toEqual([a.id, b.id].sort());
  const output = getIpv6RangeOutput({ range: pulumi.output("2001:db8:4:8000::") }, options);
  expect(await new Promise((resolve) => output.isBgp.apply(resolve))).toBe(true);
});

test("getIpv6Range refuses what is not an IPv6 address before any request, and names a range that is not there", async () => {
  await expect(getIpv6Range({ range: "10.0.0.0/24" }, options)).rejects.toThrow(
    'getIpv6Range: range "10.0.0.0/24" is not an IPv6 address, with or without a prefix length',
  );
  await expect(getIpv6Range({ range: "web" }, options)).rejects.toThrow('getIpv6Range: range "web" is not an IPv6 address');
  expect(emulator.control.listRequests()).toEqual([]);
  await expect(getIpv6Range({ range: "2001:db8:4:8000::/64" }, options)).rejects.toThrow(
    "getIpv6Range: no IPv6 range 2001:db8:4:8000::/64 in this account",
  );
  const a = emulator.control.seedCompute({ label: "a", region: "us-iad" });
  const client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  await client.networking.ipv6.ranges.create({ prefix_length: 64, compute_id: a.id });
  await client.close();
  await expect(getIpv6Range({ range: "2001:db8:4:8000::/56" }, options)).rejects.toThrow(
    "getIpv6Range: no IPv6 range 2001:db8:4:8000::/56 in this account (the range at 2001:db8:4:8000:: is /64)",
  );
});

test("getIpsOutput takes an Output argument and answers an Output of the list", async () => {
  const a = emulator.control.seedCompute({ label: "a", region: "us-iad", ipv4: ["198.51.100.1"] });
  const ips = getIpsOutput({ computeId: pulumi.output(a.id), type: "ipv4" }, options);
  expect(await new Promise((resolve) => ips.apply((list) => resolve(list.map((ip) => ip.address))))).toEqual(["198.51.100.1"]);
});
