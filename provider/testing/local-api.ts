/**
 * The API a test runs against: this package's emulator (`emulator/`, the same code
 * `compute-emulator` serves), in the test's own process, listening on a free loopback port, with
 * the objects the test seeds before anything else reaches it. The mocks (`mocks.ts`) and the
 * emulated stacks (`stack.ts`) each start one and close it with themselves.
 */
import type { Socket } from "node:net";
import { startEmulator, type EmulatorControl, type RunningEmulator } from "../../emulator";
import { seedDemoEnvironment } from "../../emulator/control/demo-environment";
import { ComputeClient } from "../../sdk/client";

/** What a seed gets: the emulator's control operations, and a client of the account's API. */
export interface SeedContext {
  /**
   * The emulator's control operations: `seedCompute` and `seedNodeBalancer` (objects this API
   * cannot create), `addFault`, `setClock`, `createToken`… (`emulator/README.md`, the control API).
   */
  control: EmulatorControl;
  /** The typed client of the API, with the account's unrestricted token: `client.vpcs.create(…)`. */
  client: ComputeClient;
}

/**
 * Objects the account holds before the program runs: instances with public addresses, a VPC made
 * by hand. Runs once, before the API answers anything else.
 *
 * @example
 * ```ts
 * import type { Seed } from "pulumi-compute/testing";
 *
 * const seed: Seed = async ({ control, client }) => {
 *   control.seedCompute({ label: "web-1", region: "us-iad", ipv4: ["198.51.100.10"] });
 *   await client.vpcs.create({ label: "made-by-hand", region: "us-iad" });
 * };
 * ```
 */
export type Seed = (api: SeedContext) => void | Promise<void>;

/**
 * The environment the examples and the reference pages expect (`compute-emulator
 * --demo-environment` seeds the same): two instances with public addresses in `us-iad`, the first
 * with a disk, and a nodebalancer.
 */
export const demoEnvironment: Seed = ({ control }) => {
  seedDemoEnvironment(control);
};

/** How a `LocalApi` runs. */
export interface LocalApiOptions {
  /** Emulated milliseconds per real millisecond (0: the clock moves only when told). */
  timeScale: number;
  seed?: Seed;
  /** Refuse body fields an endpoint does not know, instead of ignoring them as the API does (default: `COMPUTE_EMULATOR_STRICT=1`). */
  strict?: boolean;
}

/**
 * An emulated account's API, in this process: the emulator on a free loopback port, seeded.
 * `computeMocks().api()` answers the mocks' own; `LocalApi.start()` makes one for a test of your own.
 */
export class LocalApi {
  /** The typed client on this API, with the account's unrestricted token. */
  readonly client: ComputeClient;
  /** The API's base URL, `http://127.0.0.1:<port>/v4`. */
  readonly url: string;
  /** The account's unrestricted token. */
  readonly token: string;
  /** The emulator's control operations (faults, the clock, seeded objects, the request log). */
  readonly control: EmulatorControl;
  /** The emulator itself: its clock and state. */
  readonly emulator: RunningEmulator["emulator"];
  private closed = false;

  private constructor(
    private readonly running: RunningEmulator,
    private readonly sockets: Set<Socket>,
  ) {
    ({ url: this.url, token: this.token, control: this.control, emulator: this.emulator } = running);
    this.client = new ComputeClient({ baseUrl: running.url, token: running.token });
  }

  /** Starts the emulator on a free loopback port and runs the seed. */
  static async start(options: LocalApiOptions): Promise<LocalApi> {
    const running = await startEmulator({
      port: 0,
      timeScale: options.timeScale,
      ...(options.strict === undefined ? {} : { strict: options.strict }),
    });
    const sockets = new Set<Socket>();
    // A test that forgets to close it must not hang its runner: no connection keeps the process alive.
    running.server.unref();
    running.server.on("connection", (socket: Socket) => {
      socket.unref();
      sockets.add(socket);
      socket.once("close", () => sockets.delete(socket));
    });
    const api = new LocalApi(running, sockets);
    try {
      await options.seed?.({ control: running.control, client: api.client });
    } catch (error) {
      await api.close();
      throw error;
    }
    return api;
  }

  /** Stops the emulator; connections still open are cut. Closing twice is closing once. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.client.close();
    for (const socket of this.sockets) socket.destroy();
    await this.running.close();
  }
}
