/** `client.networking.vlans`: the path, and the recorded VLAN list parsed with the sdk schema. */
import { Collection } from "../../../sdk/core/schema";
import { Vlan } from "../../../sdk/resources/vlans";
import { harness, loadFixture, serveFixture } from "../helpers";

test("list() / listAll() iterate GET /networking/vlans", async () => {
  const h = harness();
  serveFixture(h, "vlan.list.json");
  serveFixture(h, "vlan.list.json");
  const listed = [];
  for await (const v of h.client.networking.vlans.list()) listed.push(v);
  expect(await h.client.networking.vlans.listAll()).toEqual(listed);
  expect(listed).toEqual([
    { region: "ap-west", label: "go-vlan-test-list", computes: [46938078, 46938079], created: "2018-01-02T03:04:05" },
  ]);
  expect(h.calls().map((c) => `${c.method} ${c.path}`)).toEqual(["GET /v4/networking/vlans", "GET /v4/networking/vlans"]);
});

test("vlan.list.json parses with the collection schema", () => {
  expect(Collection(Vlan).safeParse(loadFixture("vlan.list.json").response).error).toBeUndefined();
});
