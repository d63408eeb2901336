/**
 * Data functions run in the program process, not the provider process. They use the same
 * credentials: stack config `compute:token` / `compute:apiUrl`, then `COMPUTE_TOKEN` /
 * `COMPUTE_API_URL`, unless the caller passes them. Under Pulumi's mocks that hold an API of their
 * own (`MOCKED_API`: `pulumi-compute/testing`'s `computeMocks`), they ask that API instead of the
 * config and the environment. Each `getX` has a `getXOutput` form (`outputForm`) that takes
 * Inputs and returns an Output.
 */
import * as pulumi from "@pulumi/pulumi";
import { ComputeClient } from "../../sdk/client";
import { ApiError } from "../../sdk/core/errors";
import { resolveCredentials, type Credentials } from "../engine/context";
import { scopeRefusal } from "../engine/oauth-scopes";
import { scopesLogger } from "../stores/scopes-log";

/** Options every data function accepts. */
export interface FunctionOptions {
  /** API base URL including `/v4`; defaults to the stack config or environment. */
  apiUrl?: string;
  /** API token; defaults to the stack config or environment. */
  token?: string;
}

/**
 * The key under which mocks given to `pulumi.runtime.setMocks` offer the program's data functions
 * an API of their own: `{ connect(): Promise<Credentials> }`, which resolves once that API
 * answers. Found through the runtime's own record of the mocks, so nothing else in the process
 * changes, and a unit test whose shell holds a `COMPUTE_TOKEN` never reaches the real API.
 */
export const MOCKED_API = Symbol.for("pulumi-compute.mockedApi");

/** What mocks offer under `MOCKED_API`. */
export interface MockedApi {
  connect(): Promise<Credentials>;
}

/** The API of the mocks the program runs under, if they offer one. */
function mockedApi(): MockedApi | undefined {
  let monitor: unknown;
  try {
    monitor = pulumi.runtime.getMonitor();
  } catch {
    return undefined; // outside a Pulumi program
  }
  const mocks = (monitor as { mocks?: Partial<Record<typeof MOCKED_API, MockedApi>> } | undefined)?.mocks;
  return mocks?.[MOCKED_API];
}

function stackConfig(key: string): string | undefined {
  try {
    return pulumi.runtime.getConfig(key);
  } catch {
    return undefined; // outside a Pulumi program
  }
}

/**
 * Runs `work` with a client for these options, closing its connections afterwards. A refusal for
 * want of an OAuth scope is said in the program's terms: which function, which scope, what to do.
 */
export async function withClient<T>(name: string, options: FunctionOptions, work: (client: ComputeClient) => Promise<T>): Promise<T> {
  const mocked = options.token || options.apiUrl ? undefined : await mockedApi()?.connect();
  const credentials = resolveCredentials((key) => {
    if (key === "compute:token") return options.token || mocked?.token || stackConfig(key);
    if (key === "compute:apiUrl") return options.apiUrl || mocked?.apiUrl || stackConfig(key);
    return stackConfig(key);
  });
  const client = new ComputeClient({ baseUrl: credentials.apiUrl, token: credentials.token, onCall: scopesLogger() });
  try {
    return await work(client);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const refusal = scopeRefusal(error);
    if (refusal)
      throw new Error(`${name}: the API refused it: ${refusal} (HTTP ${error.status} ${error.method} ${error.path})`, { cause: error });
    throw error;
  } finally {
    await client.close();
  }
}

/** A data function's arguments with each value a `pulumi.Input` (each alternative of a union mapped alone). */
export type InputArgs<A> = A extends object ? { [K in keyof A]: pulumi.Input<A[K]> } : A;

/** The `…Output` form of a data function taking `A` and resolving to `R`; `args` is optional when `A` may be omitted. */
export type OutputFunction<A, R> = (
  ...call: undefined extends A ? [args?: InputArgs<A>, options?: FunctionOptions] : [args: InputArgs<A>, options?: FunctionOptions]
) => pulumi.Output<pulumi.Unwrap<R>>;

/**
 * The Output form of the data function `fn`: it waits for the arguments' values, calls `fn`, and
 * answers an Output of the result. While an argument is unknown (a preview of an object not made
 * yet) `fn` is not called and the result is unknown. The result's nested Outputs are lifted into
 * the one returned, so a result holding a `pulumi.secret` is a secret Output, as is a result got
 * from a secret argument.
 */
export function outputForm<A, R>(fn: (args: A, options?: FunctionOptions) => Promise<R>): OutputFunction<A, R> {
  return (...[args, options]) =>
    pulumi
      .output(args)
      .apply((plain) => fn(plain as A, options))
      .apply((result) => pulumi.output(result));
}
