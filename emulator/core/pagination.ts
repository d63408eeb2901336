/**
 * Collection paging as the API does it (api-facts "Collection envelope", P8-2): `page` >= 1
 * (default 1), `page_size` 25..500 (default 100), a page past the end answers the last page,
 * and an empty collection is `{"data":[],"page":1,"pages":1,"results":0}`.
 */
import type { CollectionPage } from "../../sdk/core/schema";
import { REASONS, badRequest } from "./errors";

export const PAGE_SIZE_DEFAULT = 100;
export const PAGE_SIZE_MIN = 25;
export const PAGE_SIZE_MAX = 500;

export interface PageRequest {
  page: number;
  pageSize: number;
}

type QueryValue = string | string[] | undefined;

function single(value: QueryValue): string | undefined {
  return Array.isArray(value) ? value[value.length - 1] : value;
}

/** Strict integer text: no sign, no decimals, no leading zeroes, no blanks. */
function parseInteger(text: string): number | undefined {
  return /^(0|[1-9][0-9]{0,8})$/.test(text) ? Number(text) : undefined;
}

export function parsePageRequest(query: Record<string, QueryValue>): PageRequest {
  const pageText = single(query["page"]);
  const sizeText = single(query["page_size"]);
  let page = 1;
  let pageSize = PAGE_SIZE_DEFAULT;
  if (pageText !== undefined) {
    const n = parseInteger(pageText);
    if (n === undefined || n < 1) throw badRequest(REASONS.pageInvalid, "page");
    page = n;
  }
  if (sizeText !== undefined) {
    const n = parseInteger(sizeText);
    if (n === undefined || n < PAGE_SIZE_MIN || n > PAGE_SIZE_MAX) throw badRequest(REASONS.pageSizeInvalid, "page_size");
    pageSize = n;
  }
  return { page, pageSize };
}

export function paginate<T>(items: readonly T[], request: PageRequest): CollectionPage<T> {
  const results = items.length;
  const pages = Math.max(1, Math.ceil(results / request.pageSize));
  const page = Math.min(request.page, pages);
  const start = (page - 1) * request.pageSize;
  return { data: items.slice(start, start + request.pageSize), page, pages, results };
}
