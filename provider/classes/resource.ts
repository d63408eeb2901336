/**
 * The program side of a resource: the types the generated classes (`provider/classes/resource-classes.ts`)
 * take from a spec — constructor arguments and outputs — and `resourceClass`, which makes each of
 * them: a class that registers a spec's props and options as a dynamic resource.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { PROVIDER_KEY, providerText } from "./shim";
import { META_INPUTS, secretKeys, type AnySpec, type ResourceSpec, type Values } from "../engine/spec";
import type { KnownOutput } from "../engine/known";
import type { Camelized } from "../engine/values";
import { dynamicType, kindOfType } from "../engine/type-tokens";

export { TYPE_MODULE } from "../engine/type-tokens";

/**
 * Whether `obj` is a resource of `kind`: its Pulumi type (`__pulumiType`, which a resource and a
 * policy's view of one both carry) names the kind through either door.
 */
export function isOfKind(obj: unknown, kind: string): boolean {
  const type = (obj as { __pulumiType?: unknown } | null | undefined)?.__pulumiType;
  return typeof type === "string" && kindOfType(type) === kind;
}

/**
 * What every resource of the package is (each generated class's instance type extends it): a
 * `CustomResource` with the outputs of the inputs every resource accepts (`MetaArgs`).
 */
export interface ComputeResource extends pulumi.CustomResource {
  /** The id of the existing object this resource adopted (`adoptId` input), when one was given. */
  readonly adoptId: pulumi.Output<string | number | undefined>;
  /** Whether deleting this resource deletes the object it adopted (`deleteAdopted` input), when the program set it. */
  readonly deleteAdopted: pulumi.Output<boolean | undefined>;
  /** The operation timeouts the program set (`timeouts` input), when it set any. */
  readonly timeouts: pulumi.Output<TimeoutsArgs | undefined>;
}

/**
 * A generated class as programs use it: `new Vpc(name, args, opts)`, and `Vpc.isInstance(obj)` —
 * this class's instance, or a resource whose Pulumi type is a Vpc's through either door
 * (`pulumi-nodejs:dynamic/compute:Vpc`, `compute:index:Vpc`), as a policy's
 * `validateResourceOfType(Vpc, …)` asks.
 */
export interface ResourceClass<R extends ComputeResource, A extends object> {
  new (name: string, args: A, opts?: pulumi.CustomResourceOptions): R;
  isInstance(obj: unknown): obj is R;
}

/**
 * The class of the kind `kind`, whose spec `spec()` reads (on first use, from the spec table):
 * every generated class is one, and `resource-classes.ts` declares its instance type `R` (its
 * outputs, documented) and its arguments `A`. The class extends `CustomResource` directly, with no
 * class of ours between, so Pulumi records the program's own line as the resource's source position
 * (its SDK takes the frame four constructors up), as it does for any provider's resources.
 */
export function resourceClass<R extends ComputeResource, A extends object>(kind: string, spec: () => AnySpec): ResourceClass<R, A> {
  const made = class extends pulumi.CustomResource {
    constructor(name: string, args: A, opts?: pulumi.CustomResourceOptions) {
      const registered = quietStacks();
      try {
        super(...dynamicResource(spec(), name, args, opts));
      } finally {
        registered();
      }
      unrecordedOutputs(this, spec(), args);
    }

    static override isInstance(obj: unknown): obj is R {
      return isOfKind(obj, kind);
    }
  };
  Object.defineProperty(made, "name", { value: kind });
  return made as unknown as ResourceClass<R, A>;
}

/** Operation timeouts, as durations such as `"90s"`, `"10m"`, `"1h"`. */
export interface TimeoutsArgs {
  create?: string;
  update?: string;
  delete?: string;
}

/** Inputs every resource accepts. */
export interface MetaArgs {
  /**
   * The id of an existing object to manage instead of creating one. Its in-place fields are
   * brought to the program's values (Pulumi's `import` option takes the object only as it is).
   */
  adoptId?: pulumi.Input<string | number>;
  /**
   * Whether deleting this resource (`pulumi destroy`, removing it from the program) deletes the
   * object it adopted (`adoptId`). Without it, an adopted object is released: the resource leaves
   * state and the object stays, since another stack (of a backend this one cannot see) may manage it.
   */
  deleteAdopted?: pulumi.Input<boolean>;
  /** Overrides the default operation timeouts (Pulumi's `customTimeouts` is ignored for dynamic resources). */
  timeouts?: pulumi.Input<TimeoutsArgs>;
}

type FieldsOf<S> = S extends { inputs: infer I } ? I : never;
type RequiredKeys<I> = { [K in keyof I]: I[K] extends { required: true } ? K : never }[keyof I];
type OptionalKeys<I> = Exclude<keyof I, RequiredKeys<I>>;
type ValueOf<F> = F extends { schema: infer Z extends z.ZodType } ? z.input<Z> : never;

/**
 * An input at any depth: Pulumi resolves Outputs nested in arrays and objects of a resource's
 * props, so `allowList: [subnet.ipv4]` is as valid as `allowList: subnet.ipv4.apply((c) => [c])`,
 * and an object declared as an interface (`devices: { computes: ids }`) takes them as a type literal does.
 */
export type DeepInput<T> = T extends readonly (infer U)[]
  ? pulumi.Input<DeepInput<U>[]>
  : T extends object
    ? pulumi.Input<{ [K in keyof T]: DeepInput<T[K]> }>
    : pulumi.Input<T>;

/** The constructor arguments of a resource, derived from its spec. */
export type ArgsOf<S> = { [K in RequiredKeys<FieldsOf<S>>]: DeepInput<ValueOf<FieldsOf<S>[K]>> } & {
  [K in OptionalKeys<FieldsOf<S>>]?: DeepInput<ValueOf<FieldsOf<S>[K]>>;
} & MetaArgs;

type SnakeKey<S extends string> = S extends `${infer H}${infer T}` ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${SnakeKey<T>}` : S;

/** The type at a dotted path of `T` (`unknown` where `T` says nothing). */
type At<T, P extends string> = P extends `${infer H}.${infer R}`
  ? H extends keyof NonNullable<T>
    ? At<NonNullable<T>[H], R>
    : unknown
  : P extends keyof NonNullable<T>
    ? NonNullable<T>[P] | Extract<T, undefined>
    : unknown;

type WireOf<F, K extends string> = F extends { wire: infer W extends string } ? W : SnakeKey<K>;
type SchemaOutput<F> = F extends { schema: infer Z extends z.ZodType } ? z.output<Z> : unknown;
/** Whether a value the program gives (or the engine's default) always stands behind the output. */
type AlwaysGiven<F> = F extends { required: true }
  ? true
  : F extends { default: infer D }
    ? [D] extends [undefined]
      ? false
      : true
    : false;

/**
 * The type of a resource's output `K`:
 * - a `computed` output: what its function returns;
 * - an input: the record's value at the field's wire path, narrowed to a value the schema accepts
 *   (in its canonical form) — a managed input reads back as one — or `null` when the input is
 *   optional without a default (the API's "not set");
 * - an output-only field: the record's value at its wire path, present once the API reports it,
 *   without `null` where the field is `known` once a create has finished (`engine/known.ts`).
 * All camelCase.
 */
export type OutputOf<S, K extends string> =
  S extends ResourceSpec<infer F, infer O, infer C, infer Api, infer _Create, infer _Update, infer _In>
    ? K extends keyof C
      ? Camelized<C[K]>
      : K extends keyof F
        ? Camelized<At<Api, WireOf<F[K], K>>> & (AlwaysGiven<F[K]> extends true ? SchemaOutput<F[K]> : SchemaOutput<F[K]> | null)
        : K extends keyof O
          ? KnownOutput<Exclude<Camelized<At<Api, WireOf<O[K], K>>>, undefined>, O[K]>
          : never
    : never;

/**
 * The outputs a resource with these arguments never records (`ResourceSpec.unrecorded`, and the
 * meta inputs not given): they are not registered, and `unrecordedOutputs` adds them to the resource.
 */
export function unrecordedKeys(spec: AnySpec, args: object): string[] {
  const given = args as Values;
  return [...(spec.unrecorded?.(given) ?? []), ...META_INPUTS].filter((key) => given[key] === undefined);
}

/**
 * A resource's props: the inputs, and every output key (undefined) so it becomes a property, but
 * for the outputs it never records (`unrecordedKeys`). A secret input (an instance's root password)
 * is given as a secret, so the state records the inputs encrypted too, as the plugin's schema says.
 */
export function dynamicProps(spec: AnySpec, args: object): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const key of [...Object.keys(spec.inputs), ...Object.keys(spec.outputs), ...META_INPUTS]) props[key] = undefined;
  for (const key of unrecordedKeys(spec, args)) delete props[key];
  const given: Record<string, unknown> = { ...args };
  for (const [key, field] of Object.entries(spec.inputs)) {
    if (field.secret && given[key] !== undefined) given[key] = pulumi.secret(given[key]);
  }
  return { ...props, ...given };
}

/**
 * Gives a registered resource the outputs it never records (`unrecordedKeys`), which were not
 * registered: each an Output of `undefined` that depends on the resource, as a registered output
 * the engine never fills would be — made on first use, since programs rarely read them. Pulumi
 * makes four promises for each registered property; a `DomainRecord` of type A registers 8 of its
 * 16 (bench/README.md, "Where the time goes").
 */
export function unrecordedOutputs(resource: pulumi.CustomResource, spec: AnySpec, args: object): void {
  for (const key of unrecordedKeys(spec, args)) {
    Object.defineProperty(resource, key, {
      configurable: true,
      enumerable: true,
      get: () => {
        const value = resource.urn.apply(() => undefined);
        Object.defineProperty(resource, key, { value, enumerable: true });
        return value;
      },
    });
  }
}

/** Adds the spec's secret outputs to `additionalSecretOutputs`, so they are encrypted in state. */
export function resourceOptions(spec: AnySpec, opts: pulumi.CustomResourceOptions = {}): pulumi.CustomResourceOptions {
  const secrets = secretKeys(spec);
  if (secrets.length === 0) return opts;
  return { ...opts, additionalSecretOutputs: [...(opts.additionalSecretOutputs ?? []), ...secrets] };
}

/**
 * The arguments of `pulumi.CustomResource` for a resource of `spec`, which the class of each kind
 * (`resourceClass`) passes straight to it: a dynamic resource — the type token `pulumi-nodejs:dynamic/compute:<name>`,
 * routed to the Node.js dynamic provider host — whose `__provider` is the one-line text of its kind
 * (`shim.ts`), with every input and output of the spec a property. It registers as
 * `pulumi.dynamic.Resource` does, without serializing a closure. (`resourceClass` says why no class of ours stands between.)
 */
export function dynamicResource(
  spec: AnySpec,
  name: string,
  args: object,
  opts?: pulumi.CustomResourceOptions,
): [type: string, name: string, props: pulumi.Inputs, opts: pulumi.CustomResourceOptions] {
  const props = dynamicProps(spec, args);
  if (PROVIDER_KEY in args) throw new Error(`${PROVIDER_KEY} is not an input of ${spec.name}`);
  refuseImportWithAdoptId(spec, name, args, opts);
  warnCustomTimeouts(spec, name, opts);
  props[PROVIDER_KEY] = providerText(spec.name);
  return [dynamicType(spec.name), name, props as pulumi.Inputs, resourceOptions(spec, opts)];
}

/**
 * Pulumi's `import` option takes an existing object as it is (the provider process reads it by id,
 * `host/import.ts`), `adoptId` brings one to the program's values: one resource says one of them.
 */
function refuseImportWithAdoptId(spec: AnySpec, name: string, args: object, opts: pulumi.CustomResourceOptions | undefined): void {
  if (opts?.import === undefined || (args as Values).adoptId === undefined) return;
  throw new pulumi.RunError(
    `${spec.name} "${name}": both the \`import\` option and \`adoptId\` are set; keep \`import\` to take the object as it is ` +
      `(the program's inputs must match it), or \`adoptId\` to bring it to the program's values at the next up`,
  );
}

/**
 * Pulumi sends `customTimeouts` in each create, update and delete request, which the dynamic
 * provider host drops: the resource's row says so at preview and names the input that is honoured.
 */
function warnCustomTimeouts(spec: AnySpec, name: string, opts: pulumi.CustomResourceOptions | undefined): void {
  const custom = opts?.customTimeouts;
  if (!custom || Object.values(custom).every((v) => v === undefined)) return;
  const given = Object.entries(custom).flatMap(([op, value]) => (value === undefined ? [] : [`${op}: ${JSON.stringify(value)}`]));
  const row = { urn: pulumi.createUrn(name, dynamicType(spec.name), opts?.parent) } as pulumi.Resource;
  void pulumi.log.warn(
    `customTimeouts is not honoured by the TypeScript classes; set the input \`timeouts: { ${given.join(", ")} }\` instead ` +
      `(the same durations; the provider plugin's compute:index:${spec.name} honours customTimeouts)`,
    row,
  );
}

/**
 * Makes the registration of a resource cheap in the program: until the returned function is
 * called, new errors capture no stack frames. Pulumi's SDK wraps each property of a resource in an
 * Output of four promises and gives each promise the formatted stack of where it was made (kept for
 * its report of promises still pending at exit); a resource of ours has a property for every input
 * and output of its spec (16 for a `DomainRecord`), so formatting those 64 stacks was the largest
 * part of the program's CPU per resource — more than a no-op dynamic resource's whole registration
 * (bench/README.md, "Where the time goes"). The resource's own source position and stack trace are
 * unchanged: Pulumi captures them with a limit it sets itself. The leak report still names each
 * promise's resource and property; an error thrown by the registration keeps its message. The
 * class of each kind (`resourceClass`) calls it around `super(...)`:
 *
 * ```ts
 * const registered = quietStacks();
 * try { super(...dynamicResource(spec, name, args, opts)); } finally { registered(); }
 * ```
 */
export function quietStacks(): () => void {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  return () => {
    Error.stackTraceLimit = limit;
  };
}
