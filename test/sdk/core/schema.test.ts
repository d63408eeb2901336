/**
 * The `filterable` marks of response schemas (`sdk/core/schema.ts`): what `X-Filter` may name in a
 * listing is declared with the record, and read from it in the schema's order, nested fields by
 * their dotted path.
 */
import { z } from "zod";
import { Timestamp, filterable, filterableFields } from "../../../sdk/core/schema";
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
