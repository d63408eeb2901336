/** Regions and plan availability, compared with the recordings themselves. */
import { z } from "zod";
import { Region, RegionAvailability } from "../../../../sdk/resources/regions";
import { Collection } from "../../../../sdk/core/schema";
import { REASONS } from "../../../../emulator";
import { startTestEmulator, type TestEmulator } from "../../helpers";
import { load } from "../../../support/fixtures";

const fixture = load;

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());

test("GET /regions serves the recorded catalog of 25 regions", async () => {
  const r = await emu.get("/regions", { token: null });
  expect(r.status).toBe(200);
  expect(Collection(Region).parse(r.body)).toEqual(fixture("region.list.json").response);
});

test("GET /regions/{id} is one region; unknown is 404", async () => {
  const r = await emu.get("/regions/es-mad", { token: null });
  expect(Region.parse(r.body).capabilities).toContain("VPCs");
  expect(r.body).toEqual(fixture("region.list.json").response.data.find((x: { id: string }) => x.id === "es-mad"));
  const missing = await emu.get("/regions/xx-nowhere");
  expect(missing.status).toBe(404);
  expect(missing.body).toEqual({ errors: [{ reason: REASONS.notFound }] });
});

test("GET /regions/availability reproduces the recorded pages 1 and 3 exactly", async () => {
  const page1 = await emu.get("/regions/availability", { token: null });
  expect(Collection(RegionAvailability).parse(page1.body)).toEqual(fixture("region_availability.list.json").response);
  const page3 = await emu.get("/regions/availability", { query: { page: 3 } });
  expect(page3.body).toEqual(fixture("region_availability.list.page3.json").response);
});

test("GET /regions/{id}/availability answers an array: the region's entries of the list", async () => {
  const all = (await emu.get("/regions/availability", { query: { page_size: 500 } })).body.data as Array<{ region: string }>;
  const r = await emu.get("/regions/us-iad/availability", { token: null });
  expect(r.status).toBe(200);
  const own = z.array(RegionAvailability).parse(r.body);
  expect(own).toHaveLength(13);
  expect(own).toEqual(all.filter((a) => a.region === "us-iad"));
  expect(own[4]).toEqual({ region: "us-iad", plan: "premium131072.7", available: true });
  const east = z.array(RegionAvailability).parse((await emu.get("/regions/us-east/availability")).body);
  expect(east.length).toBeGreaterThan(0);
  expect(east.every((a) => !a.available)).toBe(true);
  // A region the recorded list leaves out has no entries.
  expect((await emu.get("/regions/es-mad/availability")).body).toEqual([]);
  expect((await emu.get("/regions/xx-nowhere/availability")).status).toBe(404);
});

test("availability is filterable by region", async () => {
  const r = await emu.get("/regions/availability", { headers: { "X-Filter": JSON.stringify({ region: "nl-ams", available: true }) } });
  expect(r.body.results).toBe(9);
});
