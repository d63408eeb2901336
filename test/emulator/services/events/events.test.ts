/** The account event log (api-facts P6-1): record, order, read/seen, filters. */
import { Event } from "../../../../sdk/resources/events";
import { Collection } from "../../../../sdk/core/schema";
import { REASONS } from "../../../../emulator";
import { EVENT_RETENTION_MS } from "../../../../emulator/services/events/operations";
import { startTestEmulator, vpcBody, type TestEmulator } from "../../helpers";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.control.reset());

async function makeEvents(n: number) {
  for (let i = 0; i < n; i++) {
    expect((await emu.post("/vpcs", vpcBody(`vpc-${i}`))).status).toBe(200);
    emu.control.setClock({ advanceMs: 1000 }); // distinct `created` seconds
  }
  return (await emu.get("/account/events")).body.data as Event[];
}

test("the record has exactly the recorded keys in the recorded order", async () => {
  const [event] = await makeEvents(1);
  expect(Object.keys(event!)).toEqual([
    "id",
    "created",
    "seen",
    "read",
    "percent_complete",
    "time_remaining",
    "rate",
    "duration",
    "action",
    "username",
    "entity",
    "status",
    "secondary_entity",
    "message",
  ]);
  expect(Object.keys(event!.entity!)).toEqual(["label", "id", "type", "url"]);
  expect(Event.parse(event)).toMatchObject({ status: "notification", percent_complete: null, duration: null, message: "" });
});

test("the list is newest first and parses; GET by id returns the same record", async () => {
  const events = await makeEvents(3);
  Collection(Event).parse({ data: events, page: 1, pages: 1, results: 3 });
  expect(events.map((e) => e.entity!.label)).toEqual(["vpc-2", "vpc-1", "vpc-0"]);
  const one = await emu.get(`/account/events/${events[1]!.id}`);
  expect(one.body).toEqual(events[1]);
  const missing = await emu.get("/account/events/1");
  expect(missing.status).toBe(404);
  expect(missing.body).toEqual({ errors: [{ reason: REASONS.notFound }] });
});

test("read marks one event; seen marks it and all older ones", async () => {
  const events = await makeEvents(3);
  const read = await emu.post(`/account/events/${events[2]!.id}/read`);
  expect(read.status).toBe(200);
  expect(read.body).toEqual({});
  const seen = await emu.post(`/account/events/${events[1]!.id}/seen`);
  expect(seen.body).toEqual({});
  const after = (await emu.get("/account/events")).body.data as Event[];
  expect(after.map((e) => [e.read, e.seen])).toEqual([
    [false, false],
    [false, true],
    [true, true],
  ]);
  expect((await emu.post("/account/events/1/seen")).status).toBe(404);
});

test("filters on action, entity, seen, read and created", async () => {
  const events = await makeEvents(3);
  await emu.post(`/account/events/${events[1]!.id}/seen`);
  const f = async (filter: unknown) =>
    ((await emu.get("/account/events", { headers: { "X-Filter": JSON.stringify(filter) } })).body.data as Event[]).map(
      (e) => e.entity!.label,
    );
  expect(await f({ action: "vpc_create", "entity.id": events[0]!.entity!.id })).toEqual(["vpc-2"]);
  expect(await f({ seen: false })).toEqual(["vpc-2"]);
  expect(await f({ read: true })).toEqual([]);
  expect(await f({ created: { "+gte": events[1]!.created } })).toEqual(["vpc-2", "vpc-1"]);
  expect(await f({ "+order_by": "created", "+order": "asc" })).toEqual(["vpc-0", "vpc-1", "vpc-2"]);
});

test("events are kept for the API's 90 days: recording one forgets those older, so the log is bounded by time", async () => {
  const create = async (label: string) => expect((await emu.post("/vpcs", vpcBody(label))).status).toBe(200);
  await create("old");
  emu.control.setClock({ advanceMs: 60_000 });
  await create("kept");
  emu.control.setClock({ advanceMs: EVENT_RETENTION_MS - 30_000 }); // "old" is 90 days and 30 s old, "kept" 30 s younger than 90 days
  await create("new");
  const listed = (await emu.get("/account/events")).body.data as Event[];
  expect(listed.map((e) => e.entity!.label)).toEqual(["new", "kept"]);
});
