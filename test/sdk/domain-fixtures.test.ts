/**
 * Every recorded DNS exchange (`../shared/fixtures/domain*.json`, `domain_record*.json`) replayed
 * through the sdk schemas: each response parses with its response schema (the collection schema
 * for lists), each 2xx POST/PUT request body with the strict request schema.
 */
import { readdirSync } from "node:fs";
import type { z } from "zod";
import { Collection } from "../../sdk/core/schema";
import {
  Domain,
  DomainCloneRequest,
  DomainCreateRequest,
  DomainRecord,
  DomainUpdateRequest,
  RecordCreateRequest,
  RecordUpdateRequest,
  ZoneFile,
} from "../../sdk/resources/domains";
import { FIXTURES, loadFixture } from "./helpers";
import { type SchemaRoute, expectParses, routeFor } from "../support/fixtures";

/** Method + path → schemas, from the spec's Domains table. */
const ROUTES: SchemaRoute[] = [
  { method: "GET", pattern: /^\/domains$/, response: Collection(Domain) },
  { method: "POST", pattern: /^\/domains$/, response: Domain, request: DomainCreateRequest },
  { method: "GET", pattern: /^\/domains\/\d+$/, response: Domain },
  { method: "PUT", pattern: /^\/domains\/\d+$/, response: Domain, request: DomainUpdateRequest },
  { method: "POST", pattern: /^\/domains\/\d+\/clone$/, response: Domain, request: DomainCloneRequest },
  { method: "GET", pattern: /^\/domains\/\d+\/zone-file$/, response: ZoneFile },
  { method: "GET", pattern: /^\/domains\/\d+\/records$/, response: Collection(DomainRecord) },
  { method: "POST", pattern: /^\/domains\/\d+\/records$/, response: DomainRecord, request: RecordCreateRequest },
  { method: "GET", pattern: /^\/domains\/\d+\/records\/\d+$/, response: DomainRecord },
  { method: "PUT", pattern: /^\/domains\/\d+\/records\/\d+$/, response: DomainRecord, request: RecordUpdateRequest },
];

const files = readdirSync(FIXTURES).filter((f) => /^domain(_record)?\..*\.json$/.test(f)).sort();
const route = (method: string, path: string) => routeFor(ROUTES, method, path);

test("every DNS fixture family is present", () => {
  expect(files).toHaveLength(15);
  expect(new Set(files.map((f) => f.split(".")[0]))).toEqual(new Set(["domain", "domain_record"]));
});

test.each(files)("%s: response and request body parse with the sdk schemas", (file) => {
  const f = loadFixture(file);
  expect(f.status).toBe(200);
  const r = route(f.method, f.path);
  if (!r) throw new Error(`${file}: no route for ${f.method} ${f.path}`);
  expectParses(r.response, f.response, `${file} response`);
  if (f.method === "POST" || f.method === "PUT") {
    expect(r.request).toBeDefined();
    if (f.request !== null) expectParses(r.request!, f.request, `${file} request`);
  }
});
