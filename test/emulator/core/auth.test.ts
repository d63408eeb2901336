/**
 * Tokens, OAuth scopes, restricted users' grants and account isolation (spec "Authentication",
 * api-facts P5-1, P7-1).
 */
import { VPC_REASONS } from "../../../sdk/resources/vpcs";
import { REASONS } from "../../../emulator";
import { onlyError, startTestEmulator, vpcBody, type ApiResponse, type TestEmulator } from "../helpers";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.control.reset());

function expectError(r: ApiResponse, status: number, reason: string) {
  expect(r.status).toBe(status);
  const e = onlyError(r);
  expect(e).toEqual({ reason });
}

async function createVpc(label = "vpc-1", token?: string) {
  const r = await emu.post("/vpcs", vpcBody(label, { subnets: [{ label: "s", ipv4: "10.0.0.0/24" }] }), token ? { token } : {});
  expect(r.status).toBe(200);
  return r.body as { id: number; subnets: Array<{ id: number }> };
}

describe("tokens", () => {
  test.each([
    ["no Authorization header", null],
    ["an unknown token", "f".repeat(64)],
  ])("%s is 401 Invalid Token", async (_what, token) => {
    expectError(await emu.get("/vpcs", { token }), 401, REASONS.invalidToken);
    expectError(await emu.post("/vpcs", vpcBody("v"), { token }), 401, REASONS.invalidToken);
  });

  test("a header that is not a bearer token is 401", async () => {
    expectError(await emu.get("/vpcs", { token: null, headers: { authorization: `Basic ${emu.token}` } }), 401, REASONS.invalidToken);
  });

  test("the token check comes before body validation", async () => {
    expectError(await emu.post("/vpcs", { label: "bad_label" }, { token: null }), 401, REASONS.invalidToken);
  });

  test("the primary token has every scope and says so", async () => {
    const r = await emu.get("/vpcs");
    expect(r.status).toBe(200);
    expect(r.headers["x-oauth-scopes"]).toBe("*");
    expect(r.headers["x-accepted-oauth-scopes"]).toBe("*");
  });

  test("public endpoints work without a token but refuse an unknown one", async () => {
    const r = await emu.get("/regions", { token: null });
    expect(r.status).toBe(200);
    expect(r.headers["x-oauth-scopes"]).toBeUndefined();
    expect(r.headers["x-accepted-oauth-scopes"]).toBe("*");
    expectError(await emu.get("/regions", { token: "0".repeat(64) }), 401, REASONS.invalidToken);
  });

  test("a generated primary token is 64 hex characters", () => {
    expect(emu.token).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("OAuth scopes", () => {
  test("a token without the endpoint's scope is 401 with the scope reason", async () => {
    const { token } = emu.control.createToken({ scopes: ["vpc:read_only"] });
    const r = await emu.post("/vpcs", vpcBody("v"), { token });
    expectError(r, 401, REASONS.oauthScope);
    expect(r.headers["x-oauth-scopes"]).toBe("vpc:read_only");
    expect(r.headers["x-accepted-oauth-scopes"]).toBe("vpc:read_write");
    expect((await emu.get("/vpcs")).body.results).toBe(0);
  });

  test("read_write of an area covers read_only of the same area, not of another", async () => {
    const rw = emu.control.createToken({ scopes: ["ips:read_write"] });
    expect((await emu.get("/vpcs/ips", { token: rw.token })).status).toBe(200);
    const other = emu.control.createToken({ scopes: ["vpc:read_write"] });
    expectError(await emu.get("/vpcs/ips", { token: other.token }), 401, REASONS.oauthScope);
    expect((await emu.post("/vpcs", vpcBody("v"), { token: other.token })).status).toBe(200);
  });

  test("endpoints with no listed scope accept any valid token", async () => {
    const { token } = emu.control.createToken({ scopes: ["events:read_only"] });
    expect((await emu.get("/vpcs", { token })).status).toBe(200);
  });

  test("events need events:read_only", async () => {
    const none = emu.control.createToken({ scopes: ["vpc:read_write"] });
    expectError(await emu.get("/account/events", { token: none.token }), 401, REASONS.oauthScope);
    const ok = emu.control.createToken({ scopes: ["events:read_only"] });
    const r = await emu.get("/account/events", { token: ok.token });
    expect(r.status).toBe(200);
    expect(r.headers["x-accepted-oauth-scopes"]).toBe("events:read_only");
  });
});

describe("restricted users", () => {
  test("without add_vpc a VPC create is 403 Unauthorized", async () => {
    const { token } = emu.control.createToken({ restricted: true });
    expectError(await emu.post("/vpcs", vpcBody("v"), { token }), 403, REASONS.unauthorized);
    expect((await emu.get("/vpcs")).body.results).toBe(0);
  });

  test("with add_vpc the user creates a VPC and gets read_write on it", async () => {
    const { token } = emu.control.createToken({ restricted: true, grants: { global: { add_vpc: true } } });
    const vpc = await createVpc("mine", token);
    expect((await emu.put(`/vpcs/${vpc.id}`, { description: "x" }, { token })).status).toBe(200);
    expect((await emu.get("/vpcs", { token })).body.results).toBe(1);
  });

  test("without a grant on a VPC every write is 403 and the VPC is invisible", async () => {
    const vpc = await createVpc();
    const subnetId = vpc.subnets[0]!.id;
    const { token } = emu.control.createToken({ restricted: true, grants: { global: { add_vpc: true } } });
    const writes: Array<[string, string, unknown]> = [
      ["PUT", `/vpcs/${vpc.id}`, { label: "x" }],
      ["DELETE", `/vpcs/${vpc.id}`, undefined],
      ["POST", `/vpcs/${vpc.id}/subnets`, { label: "s2", ipv4: "10.0.1.0/24" }],
      ["PUT", `/vpcs/${vpc.id}/subnets/${subnetId}`, { label: "x" }],
      ["DELETE", `/vpcs/${vpc.id}/subnets/${subnetId}`, undefined],
    ];
    for (const [method, path, body] of writes) expectError(await emu.api(method, path, { token, body }), 403, REASONS.unauthorized);
    expectError(await emu.get(`/vpcs/${vpc.id}`, { token }), 403, REASONS.unauthorized);
    expect((await emu.get("/vpcs", { token })).body.results).toBe(0);
    // Nothing changed.
    const after = (await emu.get(`/vpcs/${vpc.id}`)).body;
    expect(after.label).toBe("vpc-1");
    expect(after.subnets).toHaveLength(1);
  });

  test("a read_only grant allows reads but not writes", async () => {
    const vpc = await createVpc();
    const { token } = emu.control.createToken({ restricted: true, grants: { vpc: [{ id: vpc.id, permissions: "read_only" }] } });
    expect((await emu.get(`/vpcs/${vpc.id}`, { token })).status).toBe(200);
    expect((await emu.get(`/vpcs/${vpc.id}/subnets`, { token })).status).toBe(200);
    expectError(await emu.put(`/vpcs/${vpc.id}`, { label: "x" }, { token }), 403, REASONS.unauthorized);
    expectError(await emu.post(`/vpcs/${vpc.id}/subnets`, { label: "s2", ipv4: "10.0.1.0/24" }, { token }), 403, REASONS.unauthorized);
  });

  test("a read_write grant allows subnet changes", async () => {
    const vpc = await createVpc();
    const { token } = emu.control.createToken({ restricted: true, grants: { vpc: [{ id: vpc.id, permissions: "read_write" }] } });
    expect((await emu.post(`/vpcs/${vpc.id}/subnets`, { label: "s2", ipv4: "10.0.1.0/24" }, { token })).status).toBe(200);
    expect((await emu.del(`/vpcs/${vpc.id}/subnets/${vpc.subnets[0]!.id}`, { token })).status).toBe(200);
  });

  test("a missing VPC is 404 for a restricted user too", async () => {
    const { token } = emu.control.createToken({ restricted: true });
    expectError(await emu.put("/vpcs/99999", { label: "x" }, { token }), 404, REASONS.notFound);
  });

  test("scopes are checked before grants", async () => {
    const { token } = emu.control.createToken({ restricted: true, scopes: ["vpc:read_only"] });
    expectError(await emu.post("/vpcs", vpcBody("v"), { token }), 401, REASONS.oauthScope);
  });
});

describe("accounts", () => {
  test("accounts are isolated: objects, labels, limits and events", async () => {
    const vpc = await createVpc("shared-name");
    const other = emu.control.createAccount();
    expect(other.account).not.toBe("primary");
    expectError(await emu.get(`/vpcs/${vpc.id}`, { token: other.token }), 404, REASONS.notFound);
    expect((await emu.get("/vpcs", { token: other.token })).body.results).toBe(0);
    expect((await emu.get("/account/events", { token: other.token })).body.results).toBe(0);
    // The same label is free in another account.
    const theirs = await emu.post("/vpcs", vpcBody("shared-name"), { token: other.token });
    expect(theirs.status).toBe(200);
    expect(theirs.body.id).not.toBe(vpc.id);
    const dup = await emu.post("/vpcs", vpcBody("shared-name"));
    expect(onlyError(dup)).toEqual({ field: "label", reason: VPC_REASONS.labelUniqueVpc });
  });

  test("tokens can be issued for another account", async () => {
    const other = emu.control.createAccount({ id: "team-b" });
    const { token } = emu.control.createToken({ account: "team-b", scopes: ["vpc:read_write"] });
    await emu.post("/vpcs", vpcBody("theirs"), { token: other.token });
    expect((await emu.get("/vpcs", { token })).body.data.map((v: { label: string }) => v.label)).toEqual(["theirs"]);
  });
});
