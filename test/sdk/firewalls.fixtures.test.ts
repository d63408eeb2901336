/**
 * Every recorded firewall exchange (../shared/fixtures `firewall*.json`, `firewall_device*.json`,
 * `firewall_rules*.json` and the device 404) replayed through the sdk schemas: each response parses
 * with its response schema, each 2xx request body with the strict request schema.
 */
import { readdirSync } from "node:fs";
import type { z } from "zod";
import { Collection, Empty, ErrorEnvelope } from "../../sdk/core/schema";
import {
  Firewall,
  FirewallCreateRequest,
  FirewallDevice,
  FirewallDeviceCreateRequest,
  FirewallRules,
  FirewallRulesUpdateRequest,
  FirewallUpdateRequest,
} from "../../sdk/resources/firewalls";
import { FIXTURES, type Fixture, type SchemaRoute, expectParses, load, routeFor } from "../support/fixtures";

/** The spec's "Networking: firewalls" table. */
const ROUTES: SchemaRoute[] = [
  { method: "GET", pattern: /^\/networking\/firewalls$/, response: Collection(Firewall) },
  { method: "POST", pattern: /^\/networking\/firewalls$/, response: Firewall, request: FirewallCreateRequest },
  { method: "GET", pattern: /^\/networking\/firewalls\/\d+$/, response: Firewall },
  { method: "PUT", pattern: /^\/networking\/firewalls\/\d+$/, response: Firewall, request: FirewallUpdateRequest },
  { method: "DELETE", pattern: /^\/networking\/firewalls\/\d+$/, response: Empty },
  { method: "GET", pattern: /^\/networking\/firewalls\/\d+\/devices$/, response: Collection(FirewallDevice) },
  { method: "POST", pattern: /^\/networking\/firewalls\/\d+\/devices$/, response: FirewallDevice, request: FirewallDeviceCreateRequest },
  { method: "GET", pattern: /^\/networking\/firewalls\/\d+\/devices\/\d+$/, response: FirewallDevice },
  { method: "DELETE", pattern: /^\/networking\/firewalls\/\d+\/devices\/\d+$/, response: Empty },
  { method: "GET", pattern: /^\/networking\/firewalls\/\d+\/rules$/, response: FirewallRules },
  { method: "PUT", pattern: /^\/networking\/firewalls\/\d+\/rules$/, response: FirewallRules, request: FirewallRulesUpdateRequest },
];

const files = readdirSync(FIXTURES).filter((f) => /^(firewall|firewall_device|firewall_rules)\..*\.json$/.test(f)).sort();
const route = (f: Fixture) => routeFor(ROUTES, f.method, f.path);

test("every firewall family is present (firewalls, devices, rules)", () => {
  expect(files).toHaveLength(12);
  expect(new Set(files.map((f) => f.split(".")[0]))).toEqual(new Set(["firewall", "firewall_device", "firewall_rules"]));
});

test.each(files)("%s: response and request parse with the sdk schemas", (file) => {
  const f = load(file);
  expect(f.status).toBe(200);
  const r = route(f);
  if (!r) throw new Error(`${file}: no route for ${f.method} ${f.path}`);
  expectParses(r.response, f.response, `${file} response`);
  if (f.request !== null && f.request !== undefined) {
    expect(r.request).toBeDefined();
    expectParses(r.request!, f.request, `${file} request`);
  }
});

test("the recorded device 404 parses with ErrorEnvelope", () => {
  const f = load("error.404.firewall_device.json");
  expect(f.path).toMatch(/^\/networking\/firewalls\/\d+\/devices\/\d+$/);
  expect(ErrorEnvelope.parse(f.response).errors).toEqual([{ reason: "Not found" }]);
});

test("recorded details survive parsing: supplied keys only, null rulesets, recorded devices", () => {
  const created = Firewall.parse(load("firewall.create.json").response);
  expect(created.rules.outbound).toBeNull();
  expect(created.rules.inbound![0]).not.toHaveProperty("ports");
  expect(created.status).toBe("enabled");
  const updated = Firewall.parse(load("firewall.update.json").response);
  expect(updated.rules.inbound![0]!.addresses).toEqual({ ipv4: ["0.0.0.0/0"] });
  const device = FirewallDevice.parse(load("firewall_device.get.json").response);
  expect(device.entity).toMatchObject({ type: "compute", url: `/v4/compute/instances/${device.entity.id}` });
});
