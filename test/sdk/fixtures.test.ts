/**
 * Recorded API exchanges (../shared/fixtures) replayed through the sdk schemas: every response of
 * the covered areas parses with its response schema (the collection schema for lists), every 2xx
 * POST/PUT request body parses with the strict request schema, every error body with ErrorEnvelope.
 */
import { readdirSync } from "node:fs";
import type { z } from "zod";
import { Collection, Empty, ErrorEnvelope, issuesToErrors } from "../../sdk/core/schema";
import { Event } from "../../sdk/resources/events";
import { Region, RegionAvailability } from "../../sdk/resources/regions";
import { Subnet, SubnetCreateRequest, SubnetUpdateRequest, Vpc, VpcCreateRequest, VpcIp, VpcUpdateRequest } from "../../sdk/resources/vpcs";
import { FIXTURES, expectParses, load, routeFor, type Fixture, type SchemaRoute } from "../support/fixtures";

const ID = "[^/]+";
/** Method + path (without query) → schemas. Mirrors the endpoint tables of the spec. */
const ROUTES: SchemaRoute[] = [
  { method: "GET", pattern: /^\/regions$/, response: Collection(Region) },
  { method: "GET", pattern: /^\/regions\/availability$/, response: Collection(RegionAvailability) },
  { method: "GET", pattern: new RegExp(`^/regions/${ID}/availability$`), response: RegionAvailability },
  { method: "GET", pattern: new RegExp(`^/regions/${ID}$`), response: Region },
  { method: "GET", pattern: /^\/(networking\/)?vpcs\/ips$/, response: Collection(VpcIp) },
  { method: "GET", pattern: /^\/vpcs$/, response: Collection(Vpc) },
  { method: "POST", pattern: /^\/vpcs$/, response: Vpc, request: VpcCreateRequest },
  { method: "GET", pattern: /^\/vpcs\/\d+$/, response: Vpc },
  { method: "PUT", pattern: /^\/vpcs\/\d+$/, response: Vpc, request: VpcUpdateRequest },
  { method: "DELETE", pattern: /^\/vpcs\/\d+$/, response: Empty },
  { method: "GET", pattern: /^\/vpcs\/\d+\/ips$/, response: Collection(VpcIp) },
  { method: "GET", pattern: /^\/vpcs\/\d+\/subnets$/, response: Collection(Subnet) },
  { method: "POST", pattern: /^\/vpcs\/\d+\/subnets$/, response: Subnet, request: SubnetCreateRequest },
  { method: "GET", pattern: /^\/vpcs\/\d+\/subnets\/\d+$/, response: Subnet },
  { method: "PUT", pattern: /^\/vpcs\/\d+\/subnets\/\d+$/, response: Subnet, request: SubnetUpdateRequest },
  { method: "DELETE", pattern: /^\/vpcs\/\d+\/subnets\/\d+$/, response: Empty },
  { method: "GET", pattern: /^\/account\/events$/, response: Collection(Event) },
  { method: "GET", pattern: /^\/account\/events\/\d+$/, response: Event },
  { method: "POST", pattern: /^\/account\/events\/\d+\/(read|seen)$/, response: Empty },
];

/** Fixture families this suite covers (by file-name prefix). */
const COVERED = /^(region|region_availability|vpc|vpc_ip|subnet|event|error)\./;

const files = readdirSync(FIXTURES).filter((f) => f.endsWith(".json") && COVERED.test(f)).sort();
const route = (f: Fixture) => routeFor(ROUTES, f.method, f.path);

describe("recorded fixtures parse with the sdk schemas", () => {
  test("the fixture folder is found and every covered family is present", () => {
    const families = new Set(files.map((f) => f.split(".")[0]));
    expect([...families].sort()).toEqual(["error", "event", "region", "region_availability", "subnet", "vpc", "vpc_ip"]);
    expect(files.length).toBeGreaterThanOrEqual(37);
  });

  const errors = files.filter((f) => f.startsWith("error."));
  const successes = files.filter((f) => !f.startsWith("error."));

  test.each(errors)("%s: error body parses with ErrorEnvelope and has a reason", (file) => {
    const f = load(file);
    expect(f.status).toBeGreaterThanOrEqual(400);
    expectParses(ErrorEnvelope, f.response, file);
    expect(ErrorEnvelope.parse(f.response).errors.length).toBeGreaterThan(0);
  });

  test.each(successes)("%s: response (and request) parse", (file) => {
    const f = load(file);
    expect(f.status).toBeLessThan(300);
    const r = route(f);
    if (!r) throw new Error(`${file}: no route for ${f.method} ${f.path}`);
    expectParses(r.response, f.response, `${file} response`);
    if (r.request && f.request !== null && f.request !== undefined) expectParses(r.request, f.request, `${file} request`);
  });

  test("request bodies of the covered 2xx POST/PUT fixtures were all checked", () => {
    const withBodies = successes.map(load).filter((f) => (f.method === "POST" || f.method === "PUT") && f.request);
    expect(withBodies.length).toBeGreaterThanOrEqual(4);
    for (const f of withBodies) expect(route(f)?.request).toBeDefined();
  });

  test.each([
    ["error.400.vpc_create_label.json", VpcCreateRequest],
    ["error.400.vpc_update_label.json", VpcUpdateRequest],
    ["error.400.subnet_create_label.json", SubnetCreateRequest],
    ["error.400.subnet_update_label.json", SubnetUpdateRequest],
  ] as Array<[string, z.ZodType]>)("%s: the request schema refuses the body with the recorded {field, reason}", (file, schema) => {
    const f = load(file);
    const result = schema.safeParse(f.request);
    expect(result.success).toBe(false);
    expect(issuesToErrors(result.error!)).toEqual(expect.arrayContaining(ErrorEnvelope.parse(f.response).errors));
  });
});
