/**
 * The DNS recordings (`domain*.json`, `domain_record*.json`) replayed: the answer has the
 * recording's keys, recursively, in the same order for the 4.174-era recordings (linodego v1.33).
 * The 2018 recordings (lexicon) predate some keys: their keys must all be present, and the only
 * extra ones allowed are those the later recordings show (`created`, `updated`; `tags`, `errors` on
 * domains).
 */
import { shapeDifferences } from "../../../support/fixtures";
import { ok } from "../../helpers";
import { replayModule } from "../../replay";

/** Keys the API added after the 2018 recordings, visible in the 2023 ones. */
const LATER_KEYS = /^\$(\.data\[0\])?\.(created|updated|tags|errors): not in the recording$/;

const A = { type: "A", name: "a", target: "127.0.0.1" };

export const domainReplays = replayModule({
  name: "domains",
  replays: (emu) => {
    const domain = (name = "computego-blue-test.com") =>
      ok(emu.post("/domains", { domain: name, type: "master", soa_email: "example@example.com" }));
    const record = async (body: Record<string, unknown>) => {
      const d = await domain();
      return { d, r: await ok(emu.post(`/domains/${d.id}/records`, body)) };
    };
    return {
      "domain.create.json": (f) => emu.post("/domains", f.request),
      "domain.get.json": async () => emu.get(`/domains/${(await domain()).id}`),
      "domain.list.json": async () => (await domain(), emu.get("/domains")),
      "domain.list.filtered.json": async () => {
        await domain("lexicon-test.com");
        return emu.get("/domains", { headers: { "X-Filter": '{"domain":"lexicon-test.com"}' } });
      },
      "domain.update.json": async (f) => emu.put(`/domains/${(await domain()).id}`, f.request),
      "domain.clone.json": async (f) => emu.post(`/domains/${(await domain()).id}/clone`, f.request),
      "domain.zone_file.json": async () => emu.get(`/domains/${(await domain()).id}/zone-file`),
      "domain_record.create.json": async (f) => emu.post(`/domains/${(await domain()).id}/records`, f.request),
      "domain_record.create.cname.json": async (f) => emu.post(`/domains/${(await domain()).id}/records`, f.request),
      "domain_record.create.txt.json": async (f) => emu.post(`/domains/${(await domain()).id}/records`, f.request),
      "domain_record.get.json": async () => {
        const { d, r } = await record(A);
        return emu.get(`/domains/${d.id}/records/${r.id}`);
      },
      "domain_record.list.json": async () => emu.get(`/domains/${(await record(A)).d.id}/records`),
      "domain_record.list.mixed.json": async () => {
        const { d } = await record({ type: "A", name: "localhost", target: "127.0.0.1" });
        await ok(emu.post(`/domains/${d.id}/records`, { type: "CNAME", name: "docs", target: "docs.example.com" }));
        await ok(emu.post(`/domains/${d.id}/records`, { type: "TXT", name: "_acme-challenge.test", target: "challengetoken" }));
        return emu.get(`/domains/${d.id}/records`);
      },
      "domain_record.update.json": async (f) => {
        const { d, r } = await record(A);
        return emu.put(`/domains/${d.id}/records/${r.id}`, f.request);
      },
      "domain_record.update.txt.json": async (f) => {
        const { d, r } = await record({ type: "TXT", name: "orig.test", target: "challengetoken" });
        return emu.put(`/domains/${d.id}/records/${r.id}`, f.request);
      },
    };
  },
  compare: (_name, response, fixture) => {
    expect(response.status).toBe(fixture.status);
    const diffs = shapeDifferences(response.body, fixture.response);
    if (fixture.source.includes("lexicon")) {
      expect(diffs.filter((d) => !LATER_KEYS.test(d))).toEqual([]);
      return;
    }
    expect(diffs).toEqual([]);
    // The 4.174-era recordings also fix the key order of the records.
    const item = (v: any) => (Array.isArray(v?.data) ? v.data[0] : v);
    expect(Object.keys(item(response.body) ?? {})).toEqual(Object.keys(item(fixture.response) ?? {}));
  },
});
