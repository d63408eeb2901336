/**
 * `/domains*` (spec "Domains"): reads need `domains:read_only`, writes `domains:read_write`. The
 * spec lists no grants for domains, so restricted users are not checked beyond their scopes.
 * Domain names are unique across every account of the emulator. `POST /domains/import` performs
 * a real zone transfer (AXFR over TCP) from `remote_nameserver`, on port 53 unless the emulator's
 * `zoneTransferPort` option says otherwise.
 */
import { Collection, Empty } from "../../../sdk/core/schema";
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
import type { RouteContext, RouteSpec } from "../../core/routes";
import { TransferError, importedZone, transferZone } from "./axfr";
import { DOMAINS, findDomain, findRecord } from "./store";
import { renderDomain, renderRecord } from "./render";
import { cloneDomain, createDomain, createRecord, deleteDomain, deleteRecord, importDomain, updateDomain, updateRecord } from "./operations";
import { checkDomainName, checkDomainUpdate, checkImportSize, checkRecordCreate, checkRecordUpdate } from "./rules";
import { settleRender } from "./zone-file";

export const DOMAIN_FILTERABLE = ["id", "domain", "type", "status", "group", "tags", "created", "updated"] as const;
export const RECORD_FILTERABLE = ["id", "type", "name", "target", "tag", "created", "updated"] as const;

/** The DNS port: where zone transfers go unless `zoneTransferPort` is set. */
export const DNS_PORT = 53;

const READ = { service: "domains", auth: "token", scopes: ["domains:read_only"] } as const;
const WRITE = { service: "domains", auth: "token", scopes: ["domains:read_write"] } as const;


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

export const domainRoutes: RouteSpec[] = [
  {
    ...READ,
    method: "GET",
    path: "/domains",
    summary: "Domain collection",
    filterable: DOMAIN_FILTERABLE,
    response: Collection(Domain),
    handler: (ctx) => ctx.collection(DOMAINS.of(ctx.account).map(renderDomain)),
  },
  {
    ...WRITE,
    method: "POST",
    path: "/domains",
    summary: "Create a domain",
    response: Domain,
    handler: (ctx) => {
      const input = ctx.body(DomainCreateRequest);
      throwIfAny(checkDomainName(ctx.runtime.state, input.domain));
      return renderDomain(createDomain(ctx.actor, input));
    },
  },
  {
    ...WRITE,
    method: "POST",
    path: "/domains/import",
    summary: "Import a domain by zone transfer (AXFR) from a remote nameserver",
    response: Domain,
    handler: importZone,
  },
  {
    ...READ,
    method: "GET",
    path: "/domains/{domainId}",
    summary: "One domain",
    response: Domain,
    handler: (ctx) => renderDomain(domainOf(ctx)),
  },
  {
    ...WRITE,
    method: "PUT",
    path: "/domains/{domainId}",
    summary: "Update any writable field of a domain, its name included",
    response: Domain,
    handler: (ctx) => {
      const domain = domainOf(ctx);
      const input = ctx.body(DomainUpdateRequest);
      throwIfAny(checkDomainUpdate(ctx.runtime.state, domain, input));
      return renderDomain(updateDomain(ctx.actor, domain, input));
    },
  },
  {
    ...WRITE,
    method: "DELETE",
    path: "/domains/{domainId}",
    summary: "Delete a domain and all its records",
    response: Empty,
    handler: (ctx) => {
      deleteDomain(ctx.actor, domainOf(ctx));
      return {};
    },
  },
  {
    ...WRITE,
    method: "POST",
    path: "/domains/{domainId}/clone",
    summary: "Clone a domain with all its records under a new name",
    response: Domain,
    handler: (ctx) => {
      const source = domainOf(ctx);
      const input = ctx.body(DomainCloneRequest);
      throwIfAny(checkDomainName(ctx.runtime.state, input.domain));
      return renderDomain(cloneDomain(ctx.actor, source, input.domain));
    },
  },
  {
    ...READ,
    method: "GET",
    path: "/domains/{domainId}/zone-file",
    summary: "The lines of the domain's last rendered zone",
    response: ZoneFile,
    handler: (ctx) => ({ zone_file: [...domainOf(ctx).zone_file] }),
  },
  {
    ...READ,
    method: "GET",
    path: "/domains/{domainId}/records",
    summary: "Record collection of a domain",
    filterable: RECORD_FILTERABLE,
    response: Collection(DomainRecord),
    handler: (ctx) => ctx.collection(domainOf(ctx).records.map(renderRecord)),
  },
  {
    ...WRITE,
    method: "POST",
    path: "/domains/{domainId}/records",
    summary: "Create a record",
    response: DomainRecord,
    handler: (ctx) => {
      const domain = domainOf(ctx);
      const input = ctx.body(RecordCreateRequest);
      throwIfAny(checkRecordCreate(domain, input));
      return renderRecord(createRecord(ctx.actor, domain, input));
    },
  },
  {
    ...READ,
    method: "GET",
    path: "/domains/{domainId}/records/{recordId}",
    summary: "One record",
    response: DomainRecord,
    handler: (ctx) => renderRecord(recordOf(ctx).record),
  },
  {
    ...WRITE,
    method: "PUT",
    path: "/domains/{domainId}/records/{recordId}",
    summary: "Update a record (every field but its type)",
    response: DomainRecord,
    handler: (ctx) => {
      const { domain, record } = recordOf(ctx);
      const input = ctx.body(RecordUpdateRequest);
      throwIfAny(checkRecordUpdate(domain, record, input));
      return renderRecord(updateRecord(ctx.actor, domain, record, input));
    },
  },
  {
    ...WRITE,
    method: "DELETE",
    path: "/domains/{domainId}/records/{recordId}",
    summary: "Delete a record",
    response: Empty,
    handler: (ctx) => {
      const { domain, record } = recordOf(ctx);
      deleteRecord(ctx.actor, domain, record);
      return {};
    },
  },
];
