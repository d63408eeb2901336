/**
 * What a preview shows of an in-place update (`previewUpdate`): recorded outputs stay known,
 * changed inputs show their new values, and only what the spec says an update recomputes is
 * unknown. Also the detailed diff's element paths for a set the API normalizes (sorted, /32).
 */
import { diff, previewUpdate, UNKNOWN } from "../../../provider/engine/engine";
import { RESOURCE_SPECS } from "../../../provider/generated/spec-table";

const { Vpc, DomainRecord, DomainRecordSet, MysqlDatabase } = RESOURCE_SPECS;

const vpcState = {
  label: "app-net",
  region: "us-iad",
  description: "",
  created: "2026-01-01T00:00:00",
  updated: "2026-01-01T00:00:00",
};

describe("previewUpdate", () => {
  test("a changed input shows its new value; untouched outputs stay as recorded; `updated` is unknown", () => {
    const outs = previewUpdate(Vpc, vpcState, { label: "renamed", region: "us-iad", __provider: "text" });
    expect(outs).toEqual({ ...vpcState, label: "renamed", updated: UNKNOWN });
    expect(outs).not.toHaveProperty("__provider");
  });

  test("an input still unknown at preview shows unknown, not its recorded value", () => {
    expect(previewUpdate(Vpc, vpcState, { label: UNKNOWN, region: "us-iad" }).label).toBe(UNKNOWN);
  });

  test("an output recomputed by named inputs only: a DNS record's fqdn follows its name, not its target", () => {
    const record = {
      domainId: 7,
      type: "A",
      name: "www",
      target: "192.0.2.1",
      ttlSec: 0,
      domain: "example.com",
      fqdn: "www.example.com",
    };
    expect(previewUpdate(DomainRecord, record, { domainId: 7, type: "A", name: "www", target: "192.0.2.2" })).toEqual({
      ...record,
      target: "192.0.2.2",
    });
    expect(previewUpdate(DomainRecord, record, { domainId: 7, type: "A", name: "api", target: "192.0.2.1" }).fqdn).toBe(UNKNOWN);
  });

  test("an input whose output is the API's form (a record set's records, with ids) is unknown once it changes", () => {
    const state = {
      domainId: 7,
      domain: "example.com",
      exclusive: false,
      records: [{ id: 1, type: "A", name: "www", target: "192.0.2.1" }],
    };
    const changed = previewUpdate(DomainRecordSet, state, { domainId: 7, records: [{ type: "A", name: "www", target: "192.0.2.9" }] });
    expect(changed.records).toBe(UNKNOWN);
    expect(changed.domain).toBe("example.com");
  });

  test("a database keeps hosts, port, version and its secrets known through an allow-list change", () => {
    const state = {
      label: "db",
      region: "us-iad",
      type: "g6-nanode-1",
      engineId: "mysql/8",
      allowList: ["203.0.113.1"],
      status: "active",
      hosts: { primary: "db-1.example.net", secondary: null },
      port: 3306,
      version: "8.0.35",
      engine: "mysql",
      rootUsername: "root",
      rootPassword: "pw",
      caCert: "cert",
      created: "2026-01-01T00:00:00",
      updated: "2026-01-01T00:00:00",
    };
    const news = { label: "db", region: "us-iad", type: "g6-nanode-1", engineId: "mysql/8", allowList: ["203.0.113.1", "192.0.2.0/28"] };
    expect(previewUpdate(MysqlDatabase, state, news)).toEqual({ ...state, allowList: news.allowList, updated: UNKNOWN });
  });

  test("an update with no changed input (Pulumi's retry of an object with init errors) re-reads: every output-only field is unknown", () => {
    const outs = previewUpdate(Vpc, vpcState, { label: "app-net", region: "us-iad" });
    expect(outs).toEqual({ ...vpcState, created: UNKNOWN, updated: UNKNOWN });
  });

  test("meta inputs follow the program", () => {
    const outs = previewUpdate(Vpc, { ...vpcState, timeouts: { update: "1m" } }, { label: "x", region: "us-iad", adoptId: 5 });
    expect(outs.adoptId).toBe(5);
    expect(outs).not.toHaveProperty("timeouts");
  });
});

describe("the detailed diff of a set the API normalizes", () => {
  test("an address added to an allow list is named at the program's position, though the API's form is sorted and /32", () => {
    const inputs = { label: "db", region: "us-iad", type: "g6-nanode-1", engineId: "mysql/8", allowList: ["203.0.113.1/32"] };
    // With what a finished create always records (`known` outputs).
    const state = { ...inputs, hosts: { primary: "db-1.example.net", secondary: null }, rootUsername: "root", rootPassword: "pw" };
    const result = diff(MysqlDatabase, state, { ...inputs, allowList: ["203.0.113.1", "192.0.2.0/28"] });
    expect(result.detailedDiff).toEqual({ "allowList[1]": { kind: "add", inputDiff: false } });
  });
});
