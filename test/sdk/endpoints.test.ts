/**
 * The endpoint declarations (`sdk/core/endpoint.ts`, `sdk/endpoints.ts`): every endpoint is
 * declared once, is served by the `ComputeClient` method its name says, and a call of it sends
 * its method and its path with the values encoded; the types check path parameters and bodies.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { ComputeClient } from "../../sdk/client";
import { ClientValidationError, NotFoundError } from "../../sdk/core/errors";
import { Collection, Empty } from "../../sdk/core/schema";
import {
  type EndpointBody,
  type EndpointResult,
  describeCall,
  endpoint,
  endpointAccessor,
  endpointPath,
  matchEndpointPath,
} from "../../sdk/core/endpoint";
import { ENDPOINTS, findEndpoint } from "../../sdk/endpoints";
import { DATABASE_ENDPOINTS, MysqlDatabaseCreateRequest, PostgresqlDatabaseCreateRequest } from "../../sdk/resources/databases";
import { IMAGE_ENDPOINTS } from "../../sdk/resources/images";
import { TICKET_ENDPOINTS } from "../../sdk/resources/support";
import { VPC_ENDPOINTS, type Vpc, type VpcCreateRequest } from "../../sdk/resources/vpcs";
import { JSON_HEADERS, harness } from "./helpers";

/** A value for each path parameter: ids are integers, the rest strings with a slash to encode. */
const SAMPLE: Record<string, string | number> = {
  imageId: "private/12",
  engineId: "mysql/8.0.30",
  address: "192.0.2.1",
  range: "2001:db8::",
  regionId: "us-east",
};
const sampleParams = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, SAMPLE[n] ?? 12]));

test("every endpoint is declared once: 129 of them, unique names, unique method + path", () => {
  expect(ENDPOINTS).toHaveLength(129);
  expect(new Set(ENDPOINTS.map((e) => e.name)).size).toBe(ENDPOINTS.length);
  expect(new Set(ENDPOINTS.map((e) => `${e.method} ${e.path}`)).size).toBe(ENDPOINTS.length);
});

test("each name is the accessor of the ComputeClient method that calls it (a `#via` suffix marks a second path)", () => {
  const client = new ComputeClient({ baseUrl: "http://127.0.0.1:1/v4" });
  const missing = ENDPOINTS.filter((e) => {
    const owner = endpointAccessor(e)
      .split(".")
      .slice(0, -1)
      .reduce<unknown>((o, key) => (o as Record<string, unknown>)?.[key], client);
    return typeof (owner as Record<string, unknown> | undefined)?.[endpointAccessor(e).split(".").at(-1)!] !== "function";
  });
  expect(missing.map((e) => e.name)).toEqual([]);
  expect(ENDPOINTS.filter((e) => e.name.includes("#")).map((e) => e.name)).toEqual([
    "vpcs.ips.listAccount#networking",
    "networking.ips.assign#ipv4",
    "networking.ips.share#ipv4",
  ]);
  return client.close();
});

test("each endpoint belongs to the sdk file of its service, and declares what the emulator needs", () => {
  for (const e of ENDPOINTS) {
    expect(fs.existsSync(path.join(__dirname, "../../sdk/resources", `${e.service}.ts`))).toBe(true);
    expect(e.summary.length).toBeGreaterThan(0);
    expect(["none", "token"]).toContain(e.auth);
    expect(e.params).toEqual([...e.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]));
  }
  expect(ENDPOINTS.filter((e) => e.auth === "none").map((e) => e.name)).toEqual([
    "databases.engines.list",
    "databases.engines.get",
    "databases.types.list",
    "databases.types.get",
    "regions.list",
    "regions.get",
    "regions.availability.list",
    "regions.availability.get",
    "images.list",
    "images.get",
    "computes.types.list",
    "computes.types.get",
  ]);
  expect(ENDPOINTS.filter((e) => e.idempotent).map((e) => e.name)).toEqual([
    "networking.ips.share",
    "networking.ips.share#ipv4",
    "account.events.markRead",
    "account.events.markSeen",
  ]);
});

test("the database endpoints exist once per engine, from one factory", () => {
  for (const engine of ["mysql", "postgresql"] as const) {
    const own = ENDPOINTS.filter((e) => e.path.startsWith(`/databases/${engine}/`));
    expect(own).toHaveLength(14);
    expect(own.every((e) => e.name.startsWith(`databases.${engine}.`))).toBe(true);
  }
  expect(DATABASE_ENDPOINTS.mysql.create.body).toBe(MysqlDatabaseCreateRequest);
  expect(DATABASE_ENDPOINTS.postgresql.create.body).toBe(PostgresqlDatabaseCreateRequest);
});

test.each(ENDPOINTS.map((e) => [e.name, e] as const))("%s: a call sends its method and its path, values encoded", async (_name, e) => {
  const h = harness();
  h.pool.intercept({ path: () => true, method: e.method }).reply(404, { errors: [{ reason: "Not found" }] }, JSON_HEADERS);
  const params = sampleParams(e.params);
  await expect(h.client.call(e, params as never, undefined as never)).rejects.toBeInstanceOf(NotFoundError);
  const [sent] = h.calls();
  expect(`${sent!.method} ${sent!.path}`).toBe(`${e.method} /v4${endpointPath(e, params as never)}`);
  const decoded = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]));
  expect(matchEndpointPath(e, sent!.path.slice("/v4".length))).toEqual(decoded);
  await h.client.close();
});

test("paths: values are one encoded segment; a concrete path finds its endpoint, literal segments first", () => {
  expect(endpointPath(IMAGE_ENDPOINTS.get, { imageId: "private/12" })).toBe("/images/private%2F12");
  expect(() => endpointPath(VPC_ENDPOINTS.get, { vpcId: ".." })).toThrow(ClientValidationError);
  expect(describeCall(TICKET_ENDPOINTS.attach, { ticketId: 7 })).toBe("POST /support/tickets/7/attachments");
  expect(findEndpoint("GET", "/vpcs/ips?page=1")?.endpoint.name).toBe("vpcs.ips.listAccount");
  expect(findEndpoint("GET", "/vpcs/12")).toMatchObject({ endpoint: { name: "vpcs.get" }, params: { vpcId: "12" } });
  const image = findEndpoint("get", "/images/private%2F12");
  expect(image).toMatchObject({ endpoint: { name: "images.get" }, params: { imageId: "private/12" } });
  expect(findEndpoint("POST", "/domains/import")?.endpoint.name).toBe("domains.importZone");
  expect(findEndpoint("PATCH", "/vpcs/12")).toBeUndefined();
  expect(findEndpoint("GET", "/vpcs/12/nothing")).toBeUndefined();
});

test("a paginated endpoint derives its collection schema; a declaration the API cannot have is refused", () => {
  expect(VPC_ENDPOINTS.list.responseSchema.safeParse({ data: [], page: 1, pages: 1, results: 0 }).success).toBe(true);
  expect(VPC_ENDPOINTS.get.responseSchema).toBe(VPC_ENDPOINTS.get.response);
  const base = { name: "x", service: "x", summary: "x", auth: "token", scopes: [] } as const;
  expect(() => endpoint({ ...base, method: "GET", path: "/x", body: Empty, response: Empty })).toThrow(/only POST and PUT take a body/);
  expect(() => endpoint({ ...base, method: "POST", path: "/x", response: Empty, paginated: true })).toThrow(/only GET/);
  expect(() => endpoint({ ...base, method: "GET", path: "/x/{id}/y/{id}", response: Empty })).toThrow(/named twice/);
  expect(() => endpoint({ ...base, method: "GET", path: "x", response: Empty })).toThrow(/start with/);
  const things = endpoint({ ...base, method: "GET", path: "/things", response: z.looseObject({ n: z.number() }), paginated: true });
  expect(Collection(things.response).safeParse({ data: [{ n: 1 }], page: 1, pages: 1, results: 1 }).success).toBe(true);
});

test("types: path parameters, bodies and results come from the declaration", () => {
  const h = harness();
  const body: EndpointBody<typeof VPC_ENDPOINTS.create> = { label: "web", region: "us-east" } satisfies VpcCreateRequest;
  const page: EndpointResult<typeof VPC_ENDPOINTS.list> = { data: [], page: 1, pages: 1, results: 0 };
  const form: EndpointBody<typeof TICKET_ENDPOINTS.attach> | undefined = undefined;
  const check = () => {
    const one: Promise<Vpc> = h.client.call(VPC_ENDPOINTS.get, { vpcId: 1 }, undefined);
    // @ts-expect-error the subnet endpoints need vpcSubnetId too
    void h.client.call(VPC_ENDPOINTS.subnets.get, { vpcId: 1 }, undefined);
    // @ts-expect-error not a parameter of this path
    void h.client.call(VPC_ENDPOINTS.get, { vpcId: 1, subnetId: 2 }, undefined);
    // @ts-expect-error a create takes its body
    void h.client.call(VPC_ENDPOINTS.create, {}, { label: 1 });
    return one;
  };
  expect([typeof check, body.label, page.results, form]).toEqual(["function", "web", 0, undefined]);
  return h.client.close();
});
