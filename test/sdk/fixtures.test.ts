/**
 * Every recorded exchange in `test/fixtures` (subfolders included) replayed through the sdk's
 * endpoint declarations: each fixture's method and path find their endpoint (`findEndpoint`), a
 * 2xx response parses with the endpoint's response schema (the collection schema for a
 * paginated one), a 2xx request body with its strict body schema, and an error body with
 * `ErrorEnvelope`. A fixture no endpoint answers fails the suite unless `UNMATCHED` says why.
 * The recorded details each area relies on are checked below the generic part.
 */
import type { z } from "zod";
import { Collection, ErrorEnvelope, issuesToErrors } from "../../sdk/core/schema";
import { findEndpoint, type EndpointMatch } from "../../sdk/endpoints";
import { Event } from "../../sdk/resources/events";
import { Firewall, FirewallDevice } from "../../sdk/resources/firewalls";
import { Image, imageStatusWaiter } from "../../sdk/resources/images";
import { IpAddress, Ipv6Pool } from "../../sdk/resources/ips";
import { Ticket } from "../../sdk/resources/support";
import { type Fixture, expectParses, fixtureNames, load } from "../support/fixtures";

/** Recorded requests the sdk does not make, and why they are kept. */
const UNMATCHED: Record<string, { reason: string; response?: z.ZodType }> = {
  "error.400.busy.json": { reason: "POST /compute/instances/{id}/disks: compute instances are outside the sdk; the busy retry rule" },
  "error.401.invalid_token.json": { reason: "GET /networking/reserved/ips: reserved IPs are outside the sdk; the 401 envelope" },
  "error.429.too_many_requests.json": { reason: "DELETE /networking/reserved/ips/{address}: the 429 envelope and its Retry-After" },
  "error.503.not_yet_available.json": { reason: "GET /lke/clusters/{id}/kubeconfig: Kubernetes is outside the sdk; the 503 envelope" },
  "profile_token.create.json": { reason: "POST /profile/tokens: tokens are the emulator's control surface, not an sdk resource" },
  "profile_token.create.no_expiry.json": { reason: "POST /profile/tokens: as above" },
  "profile_token.get.json": { reason: "GET /profile/tokens/{tokenId}: as above" },
  "unrecorded/ipv6_pool.get.json": {
    reason: "GET /networking/ipv6/pools/{pool} is not in the spec's tables; the record is a pool",
    response: Ipv6Pool,
  },
};

interface Replayed {
  name: string;
  fixture: Fixture;
  match: EndpointMatch | undefined;
}

const ALL: Replayed[] = fixtureNames().map((name) => {
  const fixture = load(name);
  return { name, fixture, match: findEndpoint(fixture.method, fixture.path) };
});
const named = (name: string): Replayed => ALL.find((r) => r.name === name) ?? fail(`no fixture ${name}`);
const family = (pattern: RegExp) => ALL.map((r) => r.name).filter((n) => pattern.test(n));
const errors = ALL.filter((r) => r.name.startsWith("error."));
const successes = ALL.filter((r) => !r.name.startsWith("error.") && r.match);

function fail(message: string): never {
  throw new Error(message);
}

describe("every recorded exchange parses with its endpoint's schemas", () => {
  test("every fixture names an sdk endpoint by method and path, or is listed with the reason it does not", () => {
    expect(ALL.length).toBeGreaterThanOrEqual(126);
    const unlisted = ALL.filter((r) => !r.match && !(r.name in UNMATCHED)).map((r) => `${r.name}: ${r.fixture.method} ${r.fixture.path}`);
    expect(unlisted).toEqual([]);
    const stale = Object.keys(UNMATCHED).filter((name) => named(name).match);
    expect(stale).toEqual([]);
  });

  test.each(successes.map((r) => [r.name, r] as const))("%s: the response (and the request body) parse", (_name, replayed) => {
    const { name, fixture, match } = replayed;
    expect(fixture.status).toBe(200);
    const endpoint = match!.endpoint;
    expectParses(endpoint.responseSchema, fixture.response, `${name} response (${endpoint.name})`);
    if (fixture.request !== null && fixture.request !== undefined) {
      expect({ [endpoint.name]: endpoint.body !== undefined }).toEqual({ [endpoint.name]: true });
      expectParses(endpoint.body!, fixture.request, `${name} request (${endpoint.name})`);
    }
  });

  test.each(errors.map((r) => [r.name, r] as const))("%s: the error body parses with ErrorEnvelope, with a reason", (name, { fixture }) => {
    expect(fixture.status).toBeGreaterThanOrEqual(400);
    expectParses(ErrorEnvelope, fixture.response, name);
    expect(ErrorEnvelope.parse(fixture.response).errors.length).toBeGreaterThan(0);
  });

  test("only the error fixtures hold errors; the rest answered 200", () => {
    expect(ALL.filter((r) => !r.name.startsWith("error.") && r.fixture.status !== 200).map((r) => r.name)).toEqual([]);
    expect(errors.length).toBeGreaterThanOrEqual(16);
  });

  test("the request bodies of the 2xx fixtures were all checked against a body schema", () => {
    const withBodies = successes.filter((r) => r.fixture.request !== null && r.fixture.request !== undefined);
    expect(withBodies.length).toBeGreaterThanOrEqual(31);
    expect(withBodies.filter((r) => !r.match!.endpoint.body).map((r) => r.name)).toEqual([]);
  });

  test.each(Object.entries(UNMATCHED).filter(([, u]) => u.response))("%s (no endpoint) still parses with its record schema", (name) => {
    expectParses(UNMATCHED[name]!.response!, load(name).response, name);
  });
});

describe("every family of the areas is present", () => {
  test("VPCs, regions, events and errors: every family, 37 fixtures or more", () => {
    const files = family(/^(region|region_availability|vpc|vpc_ip|subnet|event|error)\./);
    const families = [...new Set(files.map((f) => f.split(".")[0]))].sort();
    expect(families).toEqual(["error", "event", "region", "region_availability", "subnet", "vpc", "vpc_ip"]);
    expect(files.length).toBeGreaterThanOrEqual(37);
  });

  test("DNS: 15 fixtures of domains and records; every POST and PUT goes to an endpoint with a body schema", () => {
    const files = family(/^domain(_record)?\..*\.json$/);
    expect(files).toHaveLength(15);
    expect(new Set(files.map((f) => f.split(".")[0]))).toEqual(new Set(["domain", "domain_record"]));
    const writes = files.map(named).filter((r) => r.fixture.method === "POST" || r.fixture.method === "PUT");
    expect(writes.filter((r) => !r.match?.endpoint.body).map((r) => r.name)).toEqual([]);
  });

  test("firewalls: 12 fixtures of firewalls, devices and rules", () => {
    const files = family(/^(firewall|firewall_device|firewall_rules)\..*\.json$/);
    expect(files).toHaveLength(12);
    expect(new Set(files.map((f) => f.split(".")[0]))).toEqual(new Set(["firewall", "firewall_device", "firewall_rules"]));
  });

  test("images: all eight image fixtures", () => {
    expect(family(/^image\..*\.json$/)).toEqual([
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

  test("databases: every family, the later platform's (`.current.`) included; each engine's create has its own body schema", () => {
    const files = family(/^database_/);
    expect(files.length).toBeGreaterThanOrEqual(36);
    expect(files.filter((f) => f.includes(".current."))).toHaveLength(5);
    expect(named("database_mysql.create.json").match?.endpoint.name).toBe("databases.mysql.create");
    expect(named("database_postgresql.create.json").match?.endpoint.name).toBe("databases.postgresql.create");
  });

  test("IP addresses and IPv6: exactly these twelve", () => {
    expect(family(/^(ip|ipv6_range|unrecorded\/ipv6_pool)\./)).toEqual([
      "ip.assign.json",
      "ip.get.json",
      "ip.list.json",
      "ip.list.skip_ipv6_rdns.json",
      "ip.share.json",
      "ip.update.json",
      "ipv6_range.create.json",
      "ipv6_range.delete.json",
      "ipv6_range.get.json",
      "ipv6_range.list.json",
      "unrecorded/ipv6_pool.get.json",
      "unrecorded/ipv6_pool.list.json",
    ]);
  });
});

describe("recorded details", () => {
  test.each([
    ["error.400.vpc_create_label.json", "vpcs.create"],
    ["error.400.vpc_update_label.json", "vpcs.update"],
    ["error.400.subnet_create_label.json", "vpcs.subnets.create"],
    ["error.400.subnet_update_label.json", "vpcs.subnets.update"],
  ])("%s: the body schema of %s refuses the body with the recorded {field, reason}", (file, endpointName) => {
    const { fixture, match } = named(file);
    expect(match?.endpoint.name).toBe(endpointName);
    const result = match!.endpoint.body!.safeParse(fixture.request);
    expect(result.success).toBe(false);
    expect(issuesToErrors(result.error!)).toEqual(expect.arrayContaining(ErrorEnvelope.parse(fixture.response).errors));
  });

  test("the recorded invalid rdns is refused by the body schema with exactly the recorded {field, reason}", () => {
    const { fixture, match } = named("error.400.ip_rdns_invalid.json");
    expect(match?.endpoint.name).toBe("networking.ips.update");
    const { reserved: _laterApiField, ...body } = fixture.request as Record<string, unknown>;
    expect(issuesToErrors(match!.endpoint.body!.safeParse(body).error!)).toEqual(ErrorEnvelope.parse(fixture.response).errors);
  });

  const ipErrors = [
    "error.400.ip_assign_not_found.json",
    "error.400.ip_assign_invalid_compute.json",
    "error.400.ip_rdns_invalid.json",
    "error.404.ip.json",
  ];
  test.each(ipErrors)("%s: one error entry", (name) => {
    expect(ErrorEnvelope.parse(load(name).response).errors.length).toBe(1);
  });

  test("firewalls: the device 404, supplied keys only, null rulesets, recorded devices", () => {
    const missing = named("error.404.firewall_device.json");
    expect(missing.match?.endpoint.name).toBe("networking.firewalls.devices.get");
    expect(ErrorEnvelope.parse(missing.fixture.response).errors).toEqual([{ reason: "Not found" }]);
    const created = Firewall.parse(load("firewall.create.json").response);
    expect(created.rules.outbound).toBeNull();
    expect(created.rules.inbound![0]).not.toHaveProperty("ports");
    expect(created.status).toBe("enabled");
    const updated = Firewall.parse(load("firewall.update.json").response);
    expect(updated.rules.inbound![0]!.addresses).toEqual({ ipv4: ["0.0.0.0/0"] });
    const device = FirewallDevice.parse(load("firewall_device.get.json").response);
    expect(device.entity).toMatchObject({ type: "compute", url: `/v4/compute/instances/${device.entity.id}` });
  });

  test("images: the 404 of an unknown image; the list holds private images (manual and automatic) and public ones", () => {
    const missing = named("error.404.image.json");
    expect([missing.fixture.status, missing.match?.endpoint.name]).toEqual([404, "images.get"]);
    expect(ErrorEnvelope.parse(missing.fixture.response).errors).toEqual([{ reason: "Not found" }]);
    const page = Collection(Image).parse(load("image.list.json").response);
    expect(new Set(page.data.map((i) => i.type))).toEqual(new Set(["manual", "automatic"]));
    expect(page.data.filter((i) => i.is_public)).toHaveLength(39);
    expect(page.data.find((i) => i.type === "automatic")).toMatchObject({ created_by: null, updated: null, expiry: expect.any(String) });
  });

  test("images: the recorded upload (pending_upload, then available) satisfies the waiter's predicates", () => {
    const waiter = imageStatusWaiter("private/23851696");
    const pending = Image.parse(load("image.get.private.pending_upload.json").response);
    const available = Image.parse(load("image.get.private.json").response);
    expect([waiter.done(pending), waiter.failed(pending)]).toEqual([false, undefined]);
    expect([waiter.done(available), waiter.failed(available)]).toEqual([true, undefined]);
    expect(waiter.failed(undefined)).toMatch(/no longer exists/);
    expect(imageStatusWaiter("private/23851701").done(Image.parse(load("image.create.json").response))).toBe(false); // creating
  });

  test.each([
    "event.list.database_create.notification.json",
    "event.list.database_create.finished.json",
    "event.list.database_update.notification.json",
    "event.list.database_update.finished.json",
  ])("%s: the database events are an events page", (file) => {
    expect(named(file).match?.endpoint.name).toBe("account.events.list");
    expectParses(Collection(Event), load(file).response, file);
  });

  test("IP lists keep `vpc_nat_1_1` (null on IPv4) and lack it on IPv6; single answers lack it", () => {
    const [v4, v6] = Collection(IpAddress).parse(load("ip.list.json").response).data;
    expect(v4!.vpc_nat_1_1).toBeNull();
    expect(v6).not.toHaveProperty("vpc_nat_1_1");
    expect(IpAddress.parse(load("ip.get.json").response)).not.toHaveProperty("vpc_nat_1_1");
  });

  test("the hand-written ticket fixtures parse with the schemas", () => {
    const get = named("unrecorded/support_ticket.get.json");
    const list = named("unrecorded/support_ticket.list.json");
    expect([get.match?.endpoint.name, list.match?.endpoint.name]).toEqual(["support.tickets.get", "support.tickets.list"]);
    expect(Ticket.parse(get.fixture.response).id).toBe(get.fixture.response.id);
    expect(Collection(Ticket).parse(list.fixture.response).data.length).toBe(list.fixture.response.data.length);
  });
});
