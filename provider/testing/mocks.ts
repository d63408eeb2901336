/**
 * `computeMocks()`: Pulumi mocks (`pulumi.runtime.setMocks`) whose answers are what an `up`
 * against the API records, because they come from the same code. Each of this package's resources
 * goes through the engine's own provider methods (`makeProvider`: the spec's `check`, its shared
 * checks, the create hooks and their waits) against an emulator in the test's process
 * (`local-api.ts`), on a clock that only the provider's waits move (`emulated-time.ts`): ids in the
 * API's form, every output with its type, `status` as at the end of the wait, secrets as secrets.
 * Nothing here knows a resource; a new spec is mocked the day it is served.
 *
 * A preview (`setMocks(…, preview = true)`) answers as a preview does: inputs the spec's checks
 * refuse fail, and a create shows its checked inputs, every output the API computes unknown.
 * Data functions ask the same account (`MOCKED_API`, `functions/client.ts`). Other providers'
 * resources and functions go to the `fallback` the test gives.
 */
import * as pulumi from "@pulumi/pulumi";
import { CONFIG_API_URL, CONFIG_PACING, CONFIG_TOKEN, type Credentials } from "../engine/context";
import { PROVIDER_KEY, type Failure, type Inputs, type Outputs } from "../engine/spec";
import type { ProviderTime } from "../engine/time";
import { UNKNOWN } from "../engine/values";
import { MOCKED_API, type MockedApi } from "../functions/client";
import { servingContext } from "../serve/serving-context";
import { Serving } from "../serve/providers";
import { specForType } from "../serve/spec-lookup";
import { emulatedTime } from "./emulated-time";
import { LocalApi, type Seed } from "./local-api";

/** Options of `computeMocks`. */
export interface ComputeMocksOptions {
  /**
   * Objects the account holds before the program runs (`demoEnvironment`, or a function of your
   * own: `({ control, client }) => …`). Data functions see them; resources may refer to them.
   */
  seed?: Seed;
  /**
   * The mocks of every other provider: their resources, component resources, and function calls
   * (`pulumi.runtime.Mocks`). Without one, such a resource's outputs are its inputs and its id is
   * `<name>_id`, and a call answers its inputs: the answers of Pulumi's documented example mocks.
   */
  fallback?: pulumi.runtime.Mocks;
  /**
   * Refuse request fields an endpoint does not know (400 `Unknown field`), where the API ignores
   * them. Default: as `COMPUTE_EMULATOR_STRICT=1` says, else off.
   */
  strict?: boolean;
}

/** The mocks, and the account they answer from. */
export interface ComputeMocks extends pulumi.runtime.Mocks, AsyncDisposable {
  /**
   * The account's API, once it answers (seeded): its `client`, the emulator's `control`, its
   * `url` and `token`, to look at what the program made or to change it behind its back.
   */
  api(): Promise<LocalApi>;
  /** Stops the API. `await using mocks = computeMocks()` does it at the end of the block. */
  dispose(): Promise<void>;
}

/**
 * What `newResource` rejects with when the spec's checks refuse a resource's inputs, as `pulumi
 * preview` refuses them: one line per failure, in the engine's words (`… resource 'db': property
 * engineId value {mysql/8.0.99} has a problem: …`). Pulumi's runtime reports it as the resource's
 * registration error (`refusalOf`).
 */
export class CheckFailedError extends Error {
  /** `CheckFailedError`. */
  override name = "CheckFailedError";
  constructor(
    /** The resource's type token, `pulumi-nodejs:dynamic/compute:MysqlDatabase`. */
    readonly type: string,
    /** The resource's name in the program. */
    readonly resourceName: string,
    /** Each failure: the input it is about (`property`, empty for the resource as a whole) and why. */
    readonly failures: readonly Failure[],
    inputs: Inputs,
  ) {
    super(failures.map((f) => checkFailureText(type, resourceName, f, inputs)).join("\n"));
  }
}

/** The engine's words for a check failure (Pulumi's `GetResourcePropertyInvalidValueError`). */
function checkFailureText(type: string, name: string, failure: Failure, inputs: Inputs): string {
  if (!failure.property) return `${type} resource '${name}' has a problem: ${failure.reason}`;
  const value = inputs[failure.property];
  const shown = typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
  return `${type} resource '${name}': property ${failure.property} value {${shown}} has a problem: ${failure.reason}`;
}

/** Pulumi's documented mocks: outputs are the inputs, ids `<name>_id`. */
const DOCUMENTED_MOCKS: pulumi.runtime.Mocks = {
  newResource: (args) => ({ id: args.custom === false ? undefined : `${args.name}_id`, state: args.inputs }),
  call: (args) => args.inputs,
};

/**
 * Pulumi mocks (`pulumi.runtime.setMocks`) whose answers are what an `up` against the API records:
 * each of this package's resources goes through the package's own provider code — the spec's
 * checks, the create, the wait until it is usable — against an emulated account in this process,
 * on a clock that moves only when the provider waits. Ids are the API's, every output is there with
 * its type, secrets are secrets; what preview refuses is refused; data functions answer from the
 * same account; other providers' resources go to `fallback`. Set them before the program is loaded.
 *
 * @example
 * ```ts
 * import * as pulumi from "@pulumi/pulumi";
 * import { computeMocks, demoEnvironment } from "pulumi-compute/testing";
 *
 * const mocks = computeMocks({ seed: demoEnvironment });
 * pulumi.runtime.setMocks(mocks, "my-infra", "test", false);
 * ```
 */
export function computeMocks(options: ComputeMocksOptions = {}): ComputeMocks {
  const fallback = options.fallback ?? DOCUMENTED_MOCKS;
  // Started at once, so the account is ready by the time the program registers anything.
  const started = LocalApi.start({ timeScale: 0, seed: options.seed, strict: options.strict });
  // A test that never asks for its mocks' API must not see an unhandled rejection: the first use reports it.
  started.catch(() => undefined);
  let ready: Promise<{ api: LocalApi; serving: Serving }> | undefined;
  const account = () =>
    (ready ??= started.then((api) => {
      const { config, time } = mockedAccount(api);
      // Progress lines have no row to go to and no one to read them in a unit test.
      const context = servingContext(
        (key) => config[key],
        () => {},
        time,
      );
      return { api, serving: new Serving(() => context) };
    }));
  const mockedApi: MockedApi = {
    connect: async (): Promise<Credentials> => {
      const { api } = await account();
      return { apiUrl: api.url, token: api.token };
    },
  };

  const mocks: ComputeMocks & { [MOCKED_API]: MockedApi } = {
    [MOCKED_API]: mockedApi,
    async newResource(args) {
      const spec = args.custom === false ? undefined : specForType(args.type);
      if (!spec) return fallback.newResource(args);
      const { serving } = await account();
      const served = serving.kind(spec.name);
      const { methods, create } = served;
      const { values, secrets } = programInputs(args.inputs);
      if (args.id) {
        // `opts.id`: a read of an existing object, as the engine's read step makes it.
        const read = await methods.read(args.id, values);
        if (!read.id) throw new Error(`${args.type} resource '${args.name}': no ${spec.noun} ${args.id}`);
        return { id: read.id, state: withSecrets(served.secrets, read.props ?? {}, secrets) };
      }
      const checked = await methods.check({}, values);
      if (checked.failures?.length) throw new CheckFailedError(args.type, args.name, checked.failures, values);
      const inputs = checked.inputs ?? values;
      // A preview's create shows the inputs (no id); what only the API computes is unknown until `up`.
      const created = await create(inputs, pulumi.runtime.isDryRun());
      if (created.id === undefined) return { id: undefined, state: withSecrets(served.secrets, created.outs, secrets) };
      return { id: created.id, state: withSecrets(served.secrets, { ...created.outs, [PROVIDER_KEY]: inputs[PROVIDER_KEY] }, secrets) };
    },
    call: (args) => fallback.call(args),
    api: async () => (await account()).api,
    dispose: async () => {
      const api = await started.catch(() => undefined);
      await api?.close();
    },
    [Symbol.asyncDispose]: () => mocks.dispose(),
  };
  return mocks;
}

/**
 * How the mocks' provider reaches their account (`api`): its URL and token as the stack's
 * configuration, pacing off, and the emulator's clock as the provider's time, which only the
 * provider's waits move. `computeMocks` and the plugin's `--mocks` (`plugin-mocks.ts`) share it.
 */
export function mockedAccount(api: LocalApi): { config: Record<string, string>; time: ProviderTime } {
  return {
    config: { [CONFIG_API_URL]: api.url, [CONFIG_TOKEN]: api.token, [CONFIG_PACING]: "off" },
    time: emulatedTime(api.emulator.clock),
  };
}

/**
 * The inputs as the provider receives them: plain values (the provider host unwraps secrets), an
 * unknown value of a preview as the engine's `UNKNOWN`; and which of them were secret.
 */
function programInputs(raw: Record<string, unknown>): { values: Inputs; secrets: Set<string> } {
  const values: Inputs = {};
  const secrets = new Set<string>();
  for (const [key, value] of Object.entries(raw ?? {})) {
    if (pulumi.runtime.isRpcSecret(value)) secrets.add(key);
    values[key] = plain(pulumi.runtime.unwrapRpcSecret(value));
  }
  return { values, secrets };
}

function plain(value: unknown): unknown {
  if (pulumi.Output.isInstance(value) || pulumi.isUnknown(value)) return UNKNOWN;
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

/**
 * Outputs as the engine records them: the spec's secret fields (the served kind's `secrets`, which
 * the program's resources give as `additionalSecretOutputs`) and every output named like an input
 * the program gave as a secret, secret.
 */
function withSecrets(specSecrets: readonly string[], outputs: Outputs, secretInputs: Set<string>): Record<string, unknown> {
  const secret = new Set([...specSecrets, ...secretInputs]);
  return Object.fromEntries(
    Object.entries(outputs).map(([key, value]) => [key, secret.has(key) && value !== undefined ? pulumi.secret(value) : value]),
  );
}
