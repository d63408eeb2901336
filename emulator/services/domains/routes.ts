/**
 * `/domains*` (spec "Domains"): reads need `domains:read_only`, writes `domains:read_write`. The
 * spec lists no grants for domains, so restricted users are not checked beyond their scopes.
 * Domain names are unique across every account of the emulator. `POST /domains/import` performs
 * a real zone transfer (AXFR over TCP) from `remote_nameserver`, on port 53 unless the emulator's
 * `zoneTransferPort` option says otherwise.
 */
import { filterableFields } from "../../../sdk/core/schema";
import { DOMAIN_ENDPOINTS, DOMAIN_REASONS, DomainRecord } from "../../../sdk/resources/domains";
import { ApiFailure, entry, found, throwIfAny } from "../../core/errors";
import { route } from "../../core/route-table";
import type { RouteContext, RouteSpec } from "../../core/routes";
import { TransferError, importedZone, transferZone } from "./axfr";
import { DOMAINS, findDomain, findRecord } from "./store";
import { renderDomain, renderRecord } from "./render";
import {
  cloneDomain,
  createDomain,
  createRecord,
  deleteDomain,
  deleteRecord,
  importDomain,
  updateDomain,
  updateRecord,
} from "./operations";
import { checkDomainName, checkDomainUpdate, checkImportSize, checkRecordCreate, checkRecordUpdate } from "./rules";
import { settleRender } from "./zone-file";

export const DOMAIN_FILTERABLE = ["id", "domain", "type", "status", "group", "tags", "created", "updated"] as const;
export const RECORD_FILTERABLE = filterableFields(DomainRecord);

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

async function importZone(ctx: RouteContext<typeof DOMAIN_ENDPOINTS.importZone>) {
  const input = ctx.body();
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

export const domainRoutes: RouteSpec[] = [
  route(DOMAIN_ENDPOINTS.list, { filterable: DOMAIN_FILTERABLE }, (ctx) => DOMAINS.of(ctx.account).map(renderDomain)),
  route(DOMAIN_ENDPOINTS.create, (ctx) => {
    const input = ctx.body();
    throwIfAny(checkDomainName(ctx.runtime.state, input.domain));
    return renderDomain(createDomain(ctx.actor, input));
  }),
  route(DOMAIN_ENDPOINTS.importZone, importZone),
  route(DOMAIN_ENDPOINTS.get, (ctx) => renderDomain(domainOf(ctx))),
  route(DOMAIN_ENDPOINTS.update, (ctx) => {
    const domain = domainOf(ctx);
    const input = ctx.body();
    throwIfAny(checkDomainUpdate(ctx.runtime.state, domain, input));
    return renderDomain(updateDomain(ctx.actor, domain, input));
  }),
  route(DOMAIN_ENDPOINTS.delete, (ctx) => deleteDomain(ctx.actor, domainOf(ctx))),
  route(DOMAIN_ENDPOINTS.clone, (ctx) => {
    const source = domainOf(ctx);
    const input = ctx.body();
    throwIfAny(checkDomainName(ctx.runtime.state, input.domain));
    return renderDomain(cloneDomain(ctx.actor, source, input.domain));
  }),
  route(DOMAIN_ENDPOINTS.zoneFile, (ctx) => ({ zone_file: [...domainOf(ctx).zone_file] })),
  route(DOMAIN_ENDPOINTS.records.list, { filterable: RECORD_FILTERABLE }, (ctx) => domainOf(ctx).records.map(renderRecord)),
  route(DOMAIN_ENDPOINTS.records.create, (ctx) => {
    const domain = domainOf(ctx);
    const input = ctx.body();
    throwIfAny(checkRecordCreate(domain, input));
    return renderRecord(createRecord(ctx.actor, domain, input));
  }),
  route(DOMAIN_ENDPOINTS.records.get, (ctx) => renderRecord(recordOf(ctx).record)),
  route(DOMAIN_ENDPOINTS.records.update, (ctx) => {
    const { domain, record } = recordOf(ctx);
    const input = ctx.body();
    throwIfAny(checkRecordUpdate(domain, record, input));
    return renderRecord(updateRecord(ctx.actor, domain, record, input));
  }),
  route(DOMAIN_ENDPOINTS.records.delete, (ctx) => {
    const { domain, record } = recordOf(ctx);
    deleteRecord(ctx.actor, domain, record);
  }),
];
