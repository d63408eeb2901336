/**
 * The program side of a resource: argument types derived from the spec, and the props and
 * options a `pulumi.dynamic.Resource` subclass hands to its constructor.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { InputField, ResourceSpec } from "./spec";

/** Pulumi type tokens are `pulumi-nodejs:dynamic/compute:<Name>`. */
export const TYPE_MODULE = "compute";

/** Operation timeouts, as durations such as `"90s"`, `"10m"`, `"1h"`. */
export interface TimeoutsArgs {
  create?: string;
  update?: string;
  delete?: string;
}

/** Inputs every resource accepts. */
export interface MetaArgs {
  /**
   * The id of an existing object to manage instead of creating one (Pulumi's `import` does not
   * work for dynamic resources). Its in-place fields are brought to the program's values.
   */
  adoptId?: pulumi.Input<string | number>;
  /** Overrides the default operation timeouts (Pulumi's `customTimeouts` is ignored for dynamic resources). */
  timeouts?: pulumi.Input<TimeoutsArgs>;
}

type FieldsOf<S> = S extends { inputs: infer I } ? I : never;
type RequiredKeys<I> = { [K in keyof I]: I[K] extends { required: true } ? K : never }[keyof I];
type OptionalKeys<I> = Exclude<keyof I, RequiredKeys<I>>;
type ValueOf<F> = F extends { schema: infer Z extends z.ZodType } ? z.input<Z> : never;

/**
 * An input at any depth: Pulumi resolves Outputs nested in arrays and objects of a resource's
 * props, so `allowList: [subnet.ipv4]` is as valid as `allowList: subnet.ipv4.apply((c) => [c])`.
 */
export type DeepInput<T> = T extends readonly (infer U)[]
  ? pulumi.Input<DeepInput<U>[]>
  : T extends Record<string, unknown>
    ? pulumi.Input<{ [K in keyof T]: DeepInput<T[K]> }>
    : pulumi.Input<T>;

/** The constructor arguments of a resource, derived from its spec. */
export type ArgsOf<S> = { [K in RequiredKeys<FieldsOf<S>>]: DeepInput<ValueOf<FieldsOf<S>[K]>> } & {
  [K in OptionalKeys<FieldsOf<S>>]?: DeepInput<ValueOf<FieldsOf<S>[K]>>;
} & MetaArgs;

type CamelKey<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<CamelKey<T>>}` : S;

/** An API record type with camelCase keys, as outputs carry it (index signatures dropped). */
export type Camelized<T> = T extends readonly (infer U)[]
  ? Camelized<U>[]
  : T extends object
    ? { [K in keyof T as K extends string ? (string extends K ? never : CamelKey<K>) : never]: Camelized<T[K]> }
    : T;

/** Props for `dynamic.Resource`: the inputs, and every output key (undefined) so it becomes a property. */
export function dynamicProps(spec: ResourceSpec, args: object): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const key of [...Object.keys(spec.inputs), ...Object.keys(spec.outputs)]) props[key] = undefined;
  return { ...props, ...args };
}

/** Adds the spec's secret outputs to `additionalSecretOutputs`, so they are encrypted in state. */
export function resourceOptions(spec: ResourceSpec, opts: pulumi.CustomResourceOptions = {}): pulumi.CustomResourceOptions {
  const secrets = Object.entries<InputField | { secret?: boolean }>({ ...spec.inputs, ...spec.outputs })
    .filter(([, field]) => field.secret)
    .map(([key]) => key);
  if (secrets.length === 0) return opts;
  return { ...opts, additionalSecretOutputs: [...(opts.additionalSecretOutputs ?? []), ...secrets] };
}
