/**
 * Each resource kind as every door serves it: the engine's provider methods of its spec, made once
 * per kind and context (`Serving`), with the rules every door shares.
 *
 * - A previewed create answers its inputs: what only the API computes is unknown until `up`.
 * - A previewed update answers what the engine knows the update will record (`previewUpdate`).
 * - Neither sends a request.
 * - What a door answers marks the spec's secret fields secret (`secrets`).
 *
 * A door converts its protocol's request to these calls and their answers back, and nothing else.
 */
import type { ProviderContext } from "../engine/context";
import { makeProvider, previewUpdate } from "../engine/engine";
import { secretKeys, type AnySpec, type Inputs, type Outputs } from "../engine/spec";
import { specOf } from "./spec-lookup";

/** The engine's provider methods of one kind (`makeProvider`). */
export type EngineProvider = ReturnType<typeof makeProvider>;

/** One resource kind, served. */
export interface Served {
  spec: AnySpec;
  /** The engine's methods: check, diff, read, delete as they are; create and update through `create` and `update` below. */
  methods: EngineProvider;
  /** The spec's secret fields (`secretKeys`), which a door marks secret in what it answers. */
  secrets: string[];
  /** A create; previewed, the inputs as the state, no id, and nothing sent. */
  create(inputs: Inputs, preview: boolean): Promise<{ id?: string; outs: Outputs }>;
  /**
   * An in-place update; previewed, the outputs it will record as far as they are known
   * (`previewUpdate`), and nothing sent. `ignoreChanges`: the resource option's paths, as the
   * door's request carries them.
   */
  update(id: string, olds: Outputs, news: Inputs, preview: boolean, ignoreChanges?: readonly string[]): Promise<{ outs: Outputs }>;
}

/** The kinds of one context, each served the first time a door asks for it. */
export class Serving {
  private readonly served = new Map<string, Served>();

  /** `specs`: the spec table, by kind (`specOf` of the generated one). */
  constructor(
    private readonly context: () => ProviderContext,
    private readonly specs: (kind: string) => AnySpec = specOf,
  ) {}

  /** The served kind; throws naming the kind when the table has none. */
  kind(kind: string): Served {
    let served = this.served.get(kind);
    if (!served) {
      const spec = this.specs(kind);
      served = serve(spec, makeProvider(spec, this.context));
      this.served.set(kind, served);
    }
    return served;
  }
}

/**
 * The kinds as the dynamic host's preview support serves them (`host/preview.ts`): its previewed
 * creates and updates, in place of the host's own. A preview reads no config and sends nothing,
 * so this serving has no context; anything but a preview would say so.
 */
export function previewServing(): Serving {
  return new Serving(() => {
    throw new Error("pulumi-compute: the dynamic host's preview support serves previews only, which need no API context");
  });
}

function serve(spec: AnySpec, methods: EngineProvider): Served {
  return {
    spec,
    methods,
    secrets: secretKeys(spec),
    create: async (inputs, preview) => {
      if (preview) return { outs: inputs };
      const created = await methods.create(inputs);
      return { id: created.id, outs: (created.outs ?? {}) as Outputs };
    },
    update: async (id, olds, news, preview, ignoreChanges = []) => {
      if (preview) return { outs: previewUpdate(spec, olds, news, ignoreChanges) };
      const updated = await methods.update(id, olds, news, ignoreChanges);
      return { outs: (updated.outs ?? {}) as Outputs };
    },
  };
}
