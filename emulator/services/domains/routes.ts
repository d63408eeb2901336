/**
 * `/domains*` (spec "Domains"): reads need `domains:read_only`, writes `domains:read_write`. The
 * spec lists no grants for domains, so restricted users are not checked beyond their scopes.
 * Domain names are unique across every account of the emulator. `POST /domains/import` performs
 * a real zone transfer (AXFR over TCP) from `remote_nameserver`, on port 53 unless the emulator's
 * `zoneTransferPort` option says otherwise.
 */
import {
  DOMAIN_REASONS,
  Domain,
  DomainCloneRequest,
  DomainCreateRequest,
  DomainImportRequest,
  DomainRecord,
  DomainUpdateRequest,
  RecordCreateRequest,
  RecordUpdateRequest,
  ZoneFile,
} from "../../../sdk/resources/domains";
import { ApiFailure, entry, found, throwIfAny } from "../../core/errors";
import { routeTable } from "../../core/route-table";
import type { RouteContext, RouteSpec } from "../../core/routes";
import { TransferError, importedZone, transferZone } from "./axfr";
import { DOMAINS, findDomain, findRecord } from "./store";
import { renderDomain, renderRecord } from "./render";
import {
  cloneDomain, createDomain, createRecord, deleteDomain, deleteRecord, importDomain, updateDomain, updateRecord,
} from "./operations";
import { checkDomainName, checkDomainUpdate, checkImportSize, checkRecordCreate, checkRecordUpdate } from "./rules";
import { settleRender } from "./zone-file";

export const DOMAIN_FILTERABLE = ["id", "domain", "type", "status", "group", "tags", "created", "updated"] as const;
export const RECORD_FILTERABLE = ["id", "type", "name", "target", "tag", "created", "updated"] as const;

/** The DNS port: where zone transfers go unless `zoneTransferPort` is set. */
export const DNS_PORT = 53;

/** The domain of the path, with any render that has come due applied first (so it reflects the state before this request). */
function domainOf(ctx: RouteContext) {
  const domain = found(findDomain(ctx.account, ctx.intParam("domainId")));
  settleRender(domain, ctx.runtime.clock.nowMs());
  return domain;
}

const recordOf = (ctx: RouteContext) => {
  const domain = domainOf(ctx);
  return { domain, record: found(findRecord(domain, ctx.intParam("recordId"))) };
};

const TRANSFER_REASONS = {
  unreachable: DOMAIN_REASONS.transferUnreachable,
  refused: DOMAIN_REASONS.transferRefused,
  failed: DOMAIN_REASONS.transferFailed,
} as const;

async function importZone(ctx: RouteContext) {
  const input = ctx.body(DomainImportRequest);
  const state = ctx.runtime.state;
  throwIfAny(checkDomainName(state, input.domain));
  const zone = input.domain.toLowerCase();
  const answers = await transferZone(input.remote_nameserver, ctx.runtime.zoneTransferPort ?? DNS_PORT, zone).catch((error: unknown) => {
    if (error instanceof TransferError) throw new ApiFailure(400, [entry(TRANSFER_REASONS[error.kind], "remote_nameserver")]);
    throw error;
  });
  // The transfer took a while: the name may have been taken meanwhile.
  throwIfAny(checkDomainName(ctx.runtime.state, zone));
  const imported = importedZone(zone, answers);
  throwIfAny(checkImportSize(imported.records.length));
  return renderDomain(importDomain(ctx.actor, { ...imported.domain, domain: zone, type: "master" }, imported.records));
}

const DOMAIN = "/domains/{domainId}";
const RECORDS = `${DOMAIN}/records`;
const RECORD = `${RECORDS}/{recordId}`;

const api = routeTable("domains", { read: ["domains:read_only"], write: ["domains:read_write"] });

export const domainRoutes: RouteSpec[] = [
  api.read.list("/domains", "Domain collection", { item: Domain, filterable: DOMAIN_FILTERABLE }, (ctx) =>
    DOMAINS.of(ctx.account).map(renderDomain),
  ),
  api.write.post("/domains", "Create a domain", { response: Domain }, (ctx) => {
    const input = ctx.body(DomainCreateRequest);
    throwIfAny(checkDomainName(ctx.runtime.state, input.domain));
    return renderDomain(createDomain(ctx.actor, input));
  }),
  api.write.post("/domains/import", "Import a domain by zone transfer (AXFR) from a remote nameserver", { response: Domain }, importZone),
  api.read.get(DOMAIN, "One domain", { response: Domain }, (ctx) => renderDomain(domainOf(ctx))),
  api.write.put(DOMAIN, "Update any writable field of a domain, its name included", { response: Domain }, (ctx) => {
    const domain = domainOf(ctx);
    const input = ctx.body(DomainUpdateRequest);
    throwIfAny(checkDomainUpdate(ctx.runtime.state, domain, input));
    return renderDomain(updateDomain(ctx.actor, domain, input));
  }),
  api.write.delete(DOMAIN, "Delete a domain and all its records", {}, (ctx) => deleteDomain(ctx.actor, domainOf(ctx))),
  api.write.post(`${DOMAIN}/clone`, "Clone a domain with all its records under a new name", { response: Domain }, (ctx) => {
    const source = domainOf(ctx);
    const input = ctx.body(DomainCloneRequest);
    throwIfAny(checkDomainName(ctx.runtime.state, input.domain));
    return renderDomain(cloneDomain(ctx.actor, source, input.domain));
  }),
  api.read.get(`${DOMAIN}/zone-file`, "The lines of the domain's last rendered zone", { response: ZoneFile }, (ctx) => ({
    zone_file: [...domainOf(ctx).zone_file],
  })),
  api.read.list(RECORDS, "Record collection of a domain", { item: DomainRecord, filterable: RECORD_FILTERABLE }, (ctx) =>
    domainOf(ctx).records.map(renderRecord),
  ),
  api.write.post(RECORDS, "Create a record", { response: DomainRecord }, (ctx) => {
    const domain = domainOf(ctx);
    const input = ctx.body(RecordCreateRequest);
    throwIfAny(checkRecordCreate(domain, input));
    return renderRecord(createRecord(ctx.actor, domain, input));
  }),
  api.read.get(RECORD, "One record", { response: DomainRecord }, (ctx) => renderRecord(recordOf(ctx).record)),
  api.write.put(RECORD, "Update a record (every field but its type)", { response: DomainRecord }, (ctx) => {
    const { domain, record } = recordOf(ctx);
    const input = ctx.body(RecordUpdateRequest);
    throwIfAny(checkRecordUpdate(domain, record, input));
    return renderRecord(updateRecord(ctx.actor, domain, record, input));
  }),
  api.write.delete(RECORD, "Delete a record", {}, (ctx) => {
    const { domain, record } = recordOf(ctx);
    deleteRecord(ctx.actor, domain, record);
  }),
];
