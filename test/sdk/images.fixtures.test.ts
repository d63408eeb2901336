/**
 * Every recorded image exchange (../shared/fixtures `image*.json` and the image 404) replayed
 * through the sdk schemas: each response parses with its response schema, each 2xx request body
 * with the strict request schema, and the recorded sequence of one upload satisfies the waiter.
 */
import { readdirSync } from "node:fs";
import type { z } from "zod";
import { Collection, Empty, ErrorEnvelope } from "../../sdk/core/schema";
import { Image, ImageCreateRequest, ImageUpdateRequest, ImageUploadRequest, ImageUploadResponse, imageStatusWaiter } from "../../sdk/resources/images";
import { FIXTURES, type Fixture, type SchemaRoute, expectParses, load, routeFor } from "../support/fixtures";

const ROUTES: SchemaRoute[] = [
  { method: "GET", pattern: /^\/images$/, response: Collection(Image) },
  { method: "POST", pattern: /^\/images$/, response: Image, request: ImageCreateRequest },
  { method: "POST", pattern: /^\/images\/upload$/, response: ImageUploadResponse, request: ImageUploadRequest },
  { method: "GET", pattern: /^\/images\/[^/]+$/, response: Image },
  { method: "PUT", pattern: /^\/images\/[^/]+$/, response: Image, request: ImageUpdateRequest },
  { method: "DELETE", pattern: /^\/images\/[^/]+$/, response: Empty },
];

const files = readdirSync(FIXTURES).filter((f) => /^image\..*\.json$/.test(f)).sort();
const route = (f: Fixture) => routeFor(ROUTES, f.method, f.path);

test("all eight image fixtures are found", () => {
  expect(files).toEqual([
    "image.create.json",
    "image.delete.json",
    "image.get.private.json",
    "image.get.private.pending_upload.json",
    "image.get.public.json",
    "image.list.json",
    "image.upload.json",
    "image.upload.no_cloud_init.json",
  ]);
});

test.each(files)("%s: the response and the request body parse", (file) => {
  const f = load(file);
  const r = route(f);
  if (!r) throw new Error(`${file}: no route for ${f.method} ${f.path}`);
  expectParses(r.response, f.response, `${file} response`);
  if (f.request !== null && f.request !== undefined) {
    expect(r.request).toBeDefined();
    expectParses(r.request!, f.request, `${file} request`);
  }
});

test("the recorded 404 of an unknown image parses as the error envelope", () => {
  const f = load("error.404.image.json");
  expect(f.status).toBe(404);
  expect(ErrorEnvelope.parse(f.response).errors).toEqual([{ reason: "Not found" }]);
});

test("the recorded list holds private images (manual and automatic) and public ones", () => {
  const page = Collection(Image).parse(load("image.list.json").response);
  expect(new Set(page.data.map((i) => i.type))).toEqual(new Set(["manual", "automatic"]));
  expect(page.data.filter((i) => i.is_public)).toHaveLength(39);
  expect(page.data.find((i) => i.type === "automatic")).toMatchObject({ created_by: null, updated: null, expiry: expect.any(String) });
});

test("the recorded upload (pending_upload, then available) satisfies the waiter's predicates", () => {
  const waiter = imageStatusWaiter("private/23851696");
  const pending = Image.parse(load("image.get.private.pending_upload.json").response);
  const available = Image.parse(load("image.get.private.json").response);
  expect([waiter.done(pending), waiter.failed(pending)]).toEqual([false, undefined]);
  expect([waiter.done(available), waiter.failed(available)]).toEqual([true, undefined]);
  expect(waiter.failed(undefined)).toMatch(/no longer exists/);
  expect(imageStatusWaiter("private/23851701").done(Image.parse(load("image.create.json").response))).toBe(false); // creating
});
