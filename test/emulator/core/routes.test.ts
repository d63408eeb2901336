/** Unknown paths, unsupported methods, malformed bodies and the error envelope itself. */
import { ErrorEnvelope } from "../../../sdk/core/schema";
import { REASONS } from "../../../emulator";
import { onlyError, startTestEmulator, type TestEmulator } from "../helpers";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.control.reset());

test.each(["/nope", "/compute/nope", "/compute/instances/1/nope", "/networking/nope", "/vpcs/1/nope", ""])(
  "unknown path /v4%s is 404 Not found",
  async (path) => {
    const r = await emu.get(path);
    expect(r.status).toBe(404);
    expect(onlyError(r)).toEqual({ reason: REASONS.notFound });
  },
);

test("paths outside /v4 are 404 too", async () => {
  const r = await emu.api("GET", "/../v3/vpcs");
  expect(r.status).toBe(404);
});

test("a known path with an unsupported method is 405 with Allow", async () => {
  const r = await emu.api("PATCH", "/vpcs");
  expect(r.status).toBe(405);
  expect(onlyError(r)).toEqual({ reason: REASONS.methodNotAllowed });
  expect(r.headers["allow"]).toBe("GET, POST");
  const put = await emu.put("/regions", {});
  expect(put.status).toBe(405);
  const del = await emu.del("/account/events");
  expect(del.status).toBe(405);
});

test("405 is answered before authentication", async () => {
  expect((await emu.api("PATCH", "/vpcs", { token: null })).status).toBe(405);
});

test("malformed JSON is 400 with no field", async () => {
  const r = await emu.api("POST", "/vpcs", { rawBody: '{"label": "x",' });
  expect(r.status).toBe(400);
  expect(onlyError(r)).toEqual({ reason: REASONS.malformedJson });
});

test("a JSON body with another content type is still read as JSON", async () => {
  const r = await emu.api("POST", "/vpcs", {
    rawBody: JSON.stringify({ label: "v", region: "es-mad" }),
    headers: { "content-type": "text/plain" },
  });
  expect(r.status).toBe(200);
});

test("a body that is not an object is 400", async () => {
  const r = await emu.post("/vpcs", [1, 2]);
  expect(r.status).toBe(400);
  expect(ErrorEnvelope.parse(r.body).errors.length).toBeGreaterThan(0);
});

test("unknown body fields are refused", async () => {
  const r = await emu.post("/vpcs", { label: "v", region: "es-mad", colour: "blue" });
  expect(r.status).toBe(400);
  expect(r.body.errors[0].reason).toContain("colour");
});

test("error entries never carry a null or empty field", async () => {
  const bodies = [await emu.get("/nope"), await emu.get("/vpcs", { token: null }), await emu.api("PATCH", "/vpcs")];
  for (const r of bodies) {
    expect(r.headers["content-type"]).toMatch(/^application\/json/);
    for (const e of r.body.errors) expect(Object.keys(e)).toEqual(["reason"]);
  }
});

test("a trailing slash names the same endpoint", async () => {
  expect((await emu.get("/vpcs/")).status).toBe(200);
});

test("responses say which API revision they mirror", async () => {
  expect((await emu.get("/regions")).headers["x-spec-version"]).toBe("4.174.0");
});

test("the route table is introspectable", () => {
  const routes = emu.control.routes();
  expect(routes).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ method: "POST", path: "/v4/vpcs", service: "vpcs", scopes: ["vpc:read_write"], grant: "add_vpc" }),
      expect.objectContaining({ method: "GET", path: "/v4/regions", auth: "none" }),
      expect.objectContaining({ method: "GET", path: "/v4/networking/vpcs/ips", scopes: ["ips:read_only"] }),
    ]),
  );
});
