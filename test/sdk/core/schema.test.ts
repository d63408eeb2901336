/**
 * The `filterable` marks of response schemas (`sdk/core/schema.ts`): what `X-Filter` may name in a
 * listing is declared with the record, and read from it in the schema's order, nested fields by
 * their dotted path.
 */
import { z } from "zod";
import { Timestamp, filterable, filterableFields } from "../../../sdk/core/schema";
import { DatabaseEngine, DatabaseType } from "../../../sdk/resources/databases";
import { DomainRecord } from "../../../sdk/resources/domains";
import { FirewallDevice } from "../../../sdk/resources/firewalls";
import { Ipv6Pool, Ipv6Range } from "../../../sdk/resources/ips";
import { RegionAvailability } from "../../../sdk/resources/regions";
import { TicketReply } from "../../../sdk/resources/support";
import { Vlan } from "../../../sdk/resources/vlans";
import { Subnet, Vpc } from "../../../sdk/resources/vpcs";

test("the marked fields, in the schema's order; a nested object's by dotted path", () => {
  const record = z.looseObject({
    id: filterable(z.number().int()),
    note: z.string(),
    entity: z.looseObject({ id: filterable(z.number()), url: z.string() }).nullable(),
    tags: filterable(z.array(z.string())),
    created: filterable(Timestamp),
  });
  expect(filterableFields(record)).toEqual(["id", "entity.id", "tags", "created"]);
});

test("a marked field made optional or nullable since (a `.partial()` record) stays marked", () => {
  const record = z.looseObject({ id: filterable(z.number().int()), prefix: filterable(z.number().int()), note: z.string() });
  expect(filterableFields(record.partial({ prefix: true }))).toEqual(["id", "prefix"]);
  expect(filterableFields(z.looseObject({ id: record.shape.id.nullable().optional() }))).toEqual(["id"]);
  expect(filterableFields(z.looseObject({ note: record.shape.note.optional() }))).toEqual([]);
});

test("a mark is on a copy: the shared schema stays unmarked, and parses as before", () => {
  expect(filterableFields(z.looseObject({ created: Timestamp }))).toEqual([]);
  const marked = filterable(Timestamp);
  expect(marked.safeParse("2018-01-02T03:04:05").success).toBe(true);
  expect(marked.safeParse("").success).toBe(false);
});

test("a VPC's and a subnet's filterable fields (spec: x-linode-filterable)", () => {
  expect(filterableFields(Vpc)).toEqual(["id", "label", "description", "region", "created", "updated"]);
  expect(filterableFields(Subnet)).toEqual(["id", "label", "ipv4", "created", "updated"]);
});

test("the other collections read from their records: lists as the emulator served them before the marks", () => {
  expect(filterableFields(RegionAvailability)).toEqual(["region", "plan", "available"]);
  expect(filterableFields(TicketReply)).toEqual(["id", "created", "created_by"]);
  expect(filterableFields(DatabaseEngine)).toEqual(["id", "engine", "version"]);
  expect(filterableFields(DatabaseType)).toEqual(["id", "label", "class", "disk", "memory", "vcpus", "deprecated"]);
  expect(filterableFields(FirewallDevice)).toEqual(["id", "created", "updated", "entity.id", "entity.type", "entity.label"]);
  expect(filterableFields(DomainRecord)).toEqual(["id", "type", "name", "target", "tag", "created", "updated"]);
  expect(filterableFields(Ipv6Pool)).toEqual(["range", "prefix", "region", "route_target"]);
  expect(filterableFields(Ipv6Range)).toEqual(["range", "prefix", "region", "route_target"]);
  expect(filterableFields(Vlan)).toEqual(["label", "region"]);
});
