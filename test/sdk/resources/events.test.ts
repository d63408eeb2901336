/** `Events` (client.account.events): paths, methods, filters, parsing of recorded exchanges. */
import { harness, serveFixture } from "../helpers";

describe("Events", () => {
  test("list() iterates GET /account/events with an X-Filter", async () => {
    const h = harness();
    const f = serveFixture(h, "event.list.database_create.finished.json");
    const filter = { "+order": "desc", "+order_by": "created", action: "database_create", "entity.id": 28254, "entity.type": "database" };
    const events = [];
    for await (const e of h.client.account.events.list({ filter })) events.push(e);
    expect(events).toHaveLength((f.response as { data: unknown[] }).data.length);
    expect(events[0]).toMatchObject({ action: "database_create", status: "finished", percent_complete: 100 });
    expect(JSON.parse(h.calls()[0]!.headers["x-filter"]!)).toEqual(filter);
  });

  test("listAll() of the recorded list and of the recorded empty list", async () => {
    const h = harness();
    serveFixture(h, "event.list.json");
    expect((await h.client.account.events.listAll()).length).toBeGreaterThan(0);
    const e = harness();
    serveFixture(e, "event.list.empty.json");
    await expect(e.client.account.events.listAll()).resolves.toEqual([]);
  });

  test("get(id) reads GET /account/events/{id}; a string secondary entity id (image) passes", async () => {
    const h = harness();
    serveFixture(h, "event.get.json");
    const event = await h.client.account.events.get(603804661);
    expect(event.secondary_entity?.id).toBe("public/ubuntu22.04");
    expect(h.calls()[0]).toMatchObject({ method: "GET", path: "/v4/account/events/603804661" });
  });

  test("markRead / markSeen POST to …/read and …/seen and resolve undefined", async () => {
    const h = harness();
    h.pool.intercept({ path: "/v4/account/events/7/read", method: "POST" }).reply(200, {});
    h.pool.intercept({ path: "/v4/account/events/7/seen", method: "POST" }).reply(200, {});
    await expect(h.client.account.events.markRead(7)).resolves.toBeUndefined();
    await expect(h.client.account.events.markSeen(7)).resolves.toBeUndefined();
    expect(h.calls().map((c) => `${c.method} ${c.path}`)).toEqual(["POST /v4/account/events/7/read", "POST /v4/account/events/7/seen"]);
    expect(h.calls()[0]!.body).toBeFalsy();
  });
});
