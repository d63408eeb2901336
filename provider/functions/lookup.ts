/**
 * Looking up one object the stack does not own: the caller names it in exactly one way (by id, or
 * by label, …), and exactly one object must answer. Every refusal names the function and the
 * arguments as the program gave them.
 */
import type { ComputeClient } from "../../sdk/client";
import { isNotFound } from "../../sdk/core/errors";
import { apiId } from "../resources/common";
import { withClient, type FunctionOptions } from "./client";

/** How a lookup's messages call its object: `{ one: "VPC", many: "VPCs" }`. */
export interface Noun {
  one: string;
  many: string;
}

/** Arguments that name an object by its `id` or by its `label`, never both. */
export type ByIdOrLabel = { id: string | number; label?: undefined } | { label: string; id?: undefined };

/** The filter of a list whose objects carry tags. */
export interface TagFilter {
  /** Only those carrying this tag. */
  tag?: string;
}

/** `id 12, label "app-net"`: the arguments given, as the program spelled them. */
function described(args: object): string {
  const given = Object.entries(args).filter(([, value]) => value !== undefined);
  return given.length ? given.map(([key, value]) => `${key} ${JSON.stringify(value)}`).join(", ") : "no arguments";
}

/**
 * Refuses, before any request, arguments that do not name the object in exactly one of `ways`
 * (`[["id"], ["name", "type"]]`: all the keys of one way, none of another), or that lack the key
 * every way needs (`required`, such as the `vpcId` of a subnet).
 */
export function refuseUnlessOneWay(fn: string, args: object, ways: readonly (readonly string[])[], required?: string): void {
  const values = args as Record<string, unknown>;
  const given = (key: string) => values[key] !== undefined;
  if (required !== undefined && !given(required)) throw new Error(`${fn}: ${required} is required (got ${described(args)})`);
  const started = ways.filter((way) => way.some(given));
  if (started.length === 1 && started[0]!.every(given)) return;
  const choices = ways.map((way) => way.join(" and ")).join(ways.some((way) => way.length > 1) ? ", or " : " or ");
  throw new Error(`${fn}: give either ${choices}${started.length > 1 ? ", not both" : ""} (got ${described(args)})`);
}

/** An id argument as the API's integer, refused (before any request) naming the function when it is not one. */
export function idArgument(fn: string, key: string, value: string | number): number {
  try {
    return apiId(value);
  } catch (error) {
    throw new Error(`${fn}: ${key} ${JSON.stringify(value)} is not an integer id`, { cause: error });
  }
}

/**
 * A listing's options with the API's filter (`X-Filter`) of the arguments given, by their wire
 * names: `{}` when none is, so the request carries no filter.
 */
export function filterGiven(fields: Record<string, unknown>): { filter?: Record<string, unknown> } {
  const filter = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  return Object.keys(filter).length ? { filter } : {};
}

/** Whether `item` holds every value given (an argument left undefined matches anything): the filters the API does not apply. */
export function hasGiven(item: object, fields: Record<string, unknown>): boolean {
  const values = item as Record<string, unknown>;
  return Object.entries(fields).every(([key, value]) => value === undefined || values[key] === value);
}

/** `getVpc: no VPC with label "app-net"`. */
export function noMatch(fn: string, noun: Noun, what: string): string {
  return `${fn}: no ${noun.one} with ${what}`;
}

/** The one object of `matches`; none, or several, are refused naming what was asked and, for several, their ids. */
export function onlyMatch<T extends { id: number }>(fn: string, noun: Noun, what: string, matches: readonly T[]): T {
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) throw new Error(noMatch(fn, noun, what));
  throw new Error(`${fn}: ${matches.length} ${noun.many} have ${what} (ids ${matches.map((m) => m.id).join(", ")}); pass id`);
}

/** `read()`, with the API's 404 (the object named is not there) said as `missing`. */
export async function orMissing<T>(read: () => Promise<T>, missing: string): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (isNotFound(error)) throw new Error(missing, { cause: error });
    throw error;
  }
}

/** How to find one object of a parent (a domain's record, a VPC's subnet) by its id or by its natural key. */
export interface ChildLookup<T> {
  readonly noun: Noun;
  /** The id the program gave, when it named the object by id. */
  readonly id: number | undefined;
  readonly get: (client: ComputeClient, id: number) => Promise<T>;
  /** The parent's objects, filtered by the key on the API's side. */
  readonly list: (client: ComputeClient) => Promise<T[]>;
  /** Whether an object has the key (the API's filter is a hint, this is the rule). */
  readonly match: (item: T) => boolean;
  /** The key as a message says it: `label "web"`. */
  readonly key: string;
  /** What to say when the parent is not there. */
  readonly parentMissing: string;
}

/** The one object of a parent that `lookup` names: by id, or the only one listed with its key. */
export function oneChild<T extends { id: number }>(fn: string, options: FunctionOptions, lookup: ChildLookup<T>): Promise<T> {
  return withClient(fn, options, async (client) => {
    const { id, noun } = lookup;
    if (id !== undefined) return orMissing(() => lookup.get(client, id), noMatch(fn, noun, `id ${id}`));
    const listed = await orMissing(() => lookup.list(client), lookup.parentMissing);
    return onlyMatch(fn, noun, lookup.key, listed.filter(lookup.match));
  });
}
