/**
 * Pagination over the collection envelope `{data, page, pages, results}`.
 *
 * A `Paginator` is lazy: iterating it fetches page after page only as items are consumed, asking
 * for the largest page size (500) so a listing costs as few rate-limited requests as possible
 * (paginated GETs have their own, lower limit). `all()` fetches page 1, learns `pages`, then the
 * rest with bounded concurrency, and returns the items in page order.
 */
import { z } from "zod";
import { ClientValidationError } from "./errors";
import type { Filter, Query, Requester } from "./request";
import { Collection, type CollectionPage } from "./schema";

/** The API's page size bounds (api-facts P8-2). */
export const MIN_PAGE_SIZE = 25;
/** The largest page size the API accepts (500); listings ask for it to make the fewest requests. */
export const MAX_PAGE_SIZE = 500;
/** Pages fetched at once by `all()` unless told otherwise. */
export const DEFAULT_LIST_CONCURRENCY = 4;

/** Caller options of every `list`/`listAll`. */
export interface ListOptions {
  /** `X-Filter` object, e.g. `{"+order_by": "created", "+order": "desc"}`. */
  filter?: Filter;
  /** 25..500; default 500. */
  pageSize?: number;
  /** Pages in flight at once in `all()`; default 4. */
  concurrency?: number;
  signal?: AbortSignal;
}

/** What to list: the collection path, the item schema and any extra query parameters. */
export interface ListSpec<T> {
  path: string;
  item: z.ZodType<T>;
  query?: Query;
  /** The page schema, when already built (an endpoint's `responseSchema`); default `Collection(item)`. */
  page?: z.ZodType<CollectionPage<T>>;
}

/** An async-iterable listing; also fetches single pages (`page(n)`) and everything (`all()`). */
export class Paginator<T> implements AsyncIterable<T> {
  private readonly pageSchema: z.ZodType<CollectionPage<T>>;
  private readonly pageSize: number;

  constructor(
    private readonly http: Requester,
    private readonly spec: ListSpec<T>,
    private readonly options: ListOptions = {},
  ) {
    this.pageSize = checkPageSize(options.pageSize ?? MAX_PAGE_SIZE);
    this.pageSchema = spec.page ?? (Collection(spec.item) as unknown as z.ZodType<CollectionPage<T>>);
  }

  /** One page, with its envelope (`page` is 1-based). */
  page(page = 1, signal: AbortSignal | undefined = this.options.signal): Promise<CollectionPage<T>> {
    return this.http.request({
      method: "GET",
      path: this.spec.path,
      query: { ...this.spec.query, page, page_size: this.pageSize },
      filter: this.options.filter,
      responseSchema: this.pageSchema,
      signal,
    });
  }

  /** The pages in order, stopping at the last one (`page >= pages`). */
  async *pages(): AsyncGenerator<CollectionPage<T>> {
    for (let next = 1; ; next++) {
      const current = await this.page(next);
      // A page number past the end is answered with the last page (the list shrank meanwhile):
      // that page was already yielded, so stop instead of repeating it.
      if (next > 1 && current.page !== next) return;
      yield current;
      if (current.page >= current.pages) return;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const current of this.pages()) yield* current.data;
  }

  /**
   * Every item. Pages after the first are fetched `concurrency` at a time; the first failure
   * cancels the requests still in flight and is the one thrown.
   */
  async all(): Promise<T[]> {
    const first = await this.page(1);
    if (first.pages <= 1) return first.data;
    const rest = Array.from({ length: first.pages - 1 }, (_, i) => i + 2);
    const cancel = new AbortController();
    const signal = this.options.signal ? AbortSignal.any([this.options.signal, cancel.signal]) : cancel.signal;
    try {
      const pages = await mapBounded(rest, this.options.concurrency ?? DEFAULT_LIST_CONCURRENCY, (n) => this.page(n, signal));
      return [first, ...pages].flatMap((p) => p.data);
    } catch (error) {
      cancel.abort();
      throw error;
    }
  }
}

/**
 * Maps `items` through `fn` with at most `limit` calls in flight, keeping input order in the
 * result. Rejects with the first failure; workers stop taking new items after it.
 */
export async function mapBounded<I, O>(items: readonly I[], limit: number, fn: (item: I) => Promise<O>): Promise<O[]> {
  const results = new Array<O>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index]!);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker);
  await Promise.all(workers);
  return results;
}

function checkPageSize(size: number): number {
  if (!Number.isInteger(size) || size < MIN_PAGE_SIZE || size > MAX_PAGE_SIZE) {
    throw new ClientValidationError("list options", [
      { field: "page_size", reason: `page_size must be an integer between ${MIN_PAGE_SIZE} and ${MAX_PAGE_SIZE}` },
    ]);
  }
  return size;
}
