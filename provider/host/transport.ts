/**
 * The dynamic provider host's service served on this package's own unary gRPC (`serveUnary` of
 * `serve/grpc.ts`, the plugin's transport) instead of grpc-js's server, inside the provider
 * process only.
 *
 * The host adds its provider service to a grpc-js `Server` (`preload.ts` wraps the implementation
 * there) and binds it with `bindAsync("127.0.0.1:0", credentials, callback)`, printing the port it
 * is called back with. grpc-js's server builds a chain of interceptors, a metadata object and a
 * call tracker for every call; every call the engine makes of a dynamic provider is unary and
 * uncompressed, which needs none of it (bench/README, issue 61 item 3: the host's protocol cost
 * 3.3 ms of CPU per record at preview against the plugin's 1.2). So that server's `bindAsync`
 * starts `serveUnary` with one method per entry of the service's definition: its request read by
 * the definition's `requestDeserialize`, its response written by its `responseSerialize`, its
 * handler the (wrapped) implementation's method, called as grpc-js calls it (on the
 * implementation, with a call that has the request), and its errors answered as grpc-js answers
 * them (`grpcJsFailure`: the code, the message and the trailers, so the status details of a
 * create's or update's init error reach the engine byte for byte). The host's only streaming
 * method, List (which only `pulumi do` calls, and which the host answers UNIMPLEMENTED), is not
 * served, and is answered UNIMPLEMENTED.
 *
 * It fails closed: a definition whose entries lack a path, their streaming flags or their
 * (de)serializers, another streaming method, a server without `bindAsync`, or a bind to another
 * address leaves grpc-js serving as it does without this package, and the preload says why once
 * (`notice.ts`). A failed listen falls back to grpc-js's own bind.
 */
import { serveUnary, grpcJsFailure, type UnaryMethod } from "../serve/grpc";

/** One entry of a grpc-js service definition, as grpc-js's `addService` reads it. */
interface MethodDefinition {
  path: string;
  requestStream: boolean;
  responseStream: boolean;
  requestDeserialize(bytes: Buffer): unknown;
  responseSerialize(value: unknown): Uint8Array;
  originalName?: unknown;
}

/** A handler in grpc-js's form: called on its implementation, calling back with an error, a response and trailers. */
type HostHandler = (call: { request: unknown }, callback: (error: unknown, response?: unknown, trailer?: unknown) => void) => unknown;

/** grpc-js's `bindAsync`, as the host calls it. */
type BindAsync = (address: unknown, credentials: unknown, callback: (error: Error | null, port: number) => void) => void;

/** The methods grpc-js serves streaming that this transport leaves unserved: the host answers them UNIMPLEMENTED, and only `pulumi do` calls them. */
const NOT_SERVED = new Set(["list"]);

/** The address the host binds, which `serveUnary` listens on (a free loopback port). */
const HOST_ADDRESS = "127.0.0.1:0";

/** What the processes of this package's dynamic door call themselves in a failure. */
const SERVER_NAME = "pulumi-compute's dynamic provider host";

/** Why the host's service cannot be served on this transport, or undefined when it can: every entry the transport serves is unary with its path and (de)serializers. */
export function transportUnusable(definition: unknown, server: unknown): string | undefined {
  if (typeof (server as { bindAsync?: unknown } | null)?.bindAsync !== "function") return "gRPC's Server has no bindAsync";
  if (typeof definition !== "object" || definition === null || Object.keys(definition).length === 0)
    return "the provider service's definition has no methods";
  for (const [name, entry] of Object.entries(definition as Record<string, Partial<MethodDefinition> | undefined>)) {
    const missing = (["path", "requestStream", "responseStream", "requestDeserialize", "responseSerialize"] as const).find(
      (member) => entry?.[member] === undefined,
    );
    if (missing) return `the provider service's definition of ${name} has no ${missing}`;
    if (typeof entry!.path !== "string") return `the provider service's definition of ${name} has no path`;
    if (typeof entry!.requestDeserialize !== "function" || typeof entry!.responseSerialize !== "function")
      return `the provider service's definition of ${name} has no requestDeserialize/responseSerialize`;
    if ((entry!.requestStream || entry!.responseStream) && !NOT_SERVED.has(name))
      return `the provider service's ${name} is a streaming method`;
  }
  return undefined;
}

/** The unary methods of `definition`, by path, each calling `implementation`'s method as grpc-js's server does (found by name, else by its original name). */
export function unaryMethods(definition: Record<string, MethodDefinition>, implementation: object): Map<string, UnaryMethod> {
  const methods = new Map<string, UnaryMethod>();
  const host = implementation as Record<string, unknown>;
  for (const [name, entry] of Object.entries(definition)) {
    if (entry.requestStream || entry.responseStream) continue;
    const handler = host[name] ?? (typeof entry.originalName === "string" ? host[entry.originalName] : undefined);
    if (typeof handler !== "function") continue; // grpc-js answers UNIMPLEMENTED too
    methods.set(entry.path, {
      decode: (bytes) => entry.requestDeserialize(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)),
      handle: (call, callback) =>
        (handler as HostHandler).call(implementation, call, (error, response, trailer) =>
          error ? callback(grpcJsFailure(error, trailer)) : callback(null, { serializeBinary: () => entry.responseSerialize(response) }),
        ),
    });
  }
  return methods;
}

/**
 * Makes `server`'s `bindAsync` serve `definition` with `implementation` on this transport, once
 * `transportUnusable` found nothing missing. A bind to another address, or a failed listen, binds
 * grpc-js's server as before; `stepAside` is told why. `beforePort` runs right before the host
 * hears its port (and prints it): what must be done before the engine may end the process.
 */
export function serveOnOwnTransport(
  server: object,
  definition: object,
  implementation: object,
  stepAside: (why: string) => void,
  beforePort: () => void = () => undefined,
): void {
  const target = server as { bindAsync: BindAsync };
  const bindAsync = target.bindAsync;
  target.bindAsync = function (this: unknown, address, credentials, callback) {
    const grpcJs = () => bindAsync.call(this, address, credentials, callback);
    if (address !== HOST_ADDRESS || typeof callback !== "function") {
      stepAside(`the host binds gRPC's server otherwise (to ${String(address)})`);
      return grpcJs();
    }
    serveUnary(unaryMethods(definition as Record<string, MethodDefinition>, implementation), SERVER_NAME).then(
      ({ port }) => {
        beforePort();
        callback(null, port);
      },
      (error: unknown) => {
        stepAside(`Node's HTTP/2 server could not listen (${error instanceof Error ? error.message : String(error)})`);
        grpcJs();
      },
    );
  };
}
