/**
 * The messages of the protocols the plugin speaks, as `@pulumi/pulumi` (the project's peer
 * dependency) ships them: the provider and engine protocols, the status and well-known messages,
 * all resolved from `@pulumi/pulumi`'s own folder so the classes are the very instances that
 * package loads. The transport is the plugin's own (`grpc.ts`): the generated service files
 * (`*_grpc_pb.js`) are not loaded, since each loads all of `@grpc/grpc-js` to build its client.
 */
import { createRequire } from "node:module";
import type * as jspb from "google-protobuf";
import type * as anyproto from "google-protobuf/google/protobuf/any_pb";
import type * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import type * as structproto from "google-protobuf/google/protobuf/struct_pb";
import type * as engineproto from "@pulumi/pulumi/proto/engine_pb";
import type * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import type * as provproto from "@pulumi/pulumi/proto/provider_pb";
import type * as statusproto from "@pulumi/pulumi/proto/status_pb";
import { plainStructs, type PlainStructs } from "./struct-values";

export interface Protocol {
  /** google-protobuf's runtime, which the message classes read and write with. */
  binary: typeof jspb;
  provider: typeof provproto;
  plugin: typeof plugproto;
  engine: typeof engineproto;
  status: typeof statusproto;
  any: typeof anyproto;
  empty: typeof emptyproto;
  struct: typeof structproto;
}

/**
 * Loads the protocol from the `@pulumi/pulumi` that resolves from here (the project's). The status
 * messages (`status`, `any`) load at their first use: only a failed create or update's init error
 * carries them.
 */
export function loadProtocol(): Protocol {
  const pulumiRequire = createRequire(require.resolve("@pulumi/pulumi/package.json"));
  return {
    binary: pulumiRequire("google-protobuf") as typeof jspb,
    provider: pulumiRequire("./proto/provider_pb") as typeof provproto,
    plugin: pulumiRequire("./proto/plugin_pb") as typeof plugproto,
    engine: pulumiRequire("./proto/engine_pb") as typeof engineproto,
    get status() {
      return pulumiRequire("./proto/status_pb") as typeof statusproto;
    },
    get any() {
      return pulumiRequire("google-protobuf/google/protobuf/any_pb") as typeof anyproto;
    },
    empty: pulumiRequire("google-protobuf/google/protobuf/empty_pb") as typeof emptyproto,
    struct: pulumiRequire("google-protobuf/google/protobuf/struct_pb") as typeof structproto,
  };
}

/** The protocol's Structs of plain values, and the writer of the responses that carry them (`plainStructs`). */
export const structsOf = (protocol: Protocol): PlainStructs =>
  plainStructs({ Writer: protocol.binary.BinaryWriter, Struct: protocol.struct.Struct, Value: protocol.struct.Value });

/** The path of a method of Pulumi's `ResourceProvider` service (`check` → `/pulumirpc.ResourceProvider/Check`). */
export const providerMethodPath = (name: string): string => `/pulumirpc.ResourceProvider/${name[0]!.toUpperCase()}${name.slice(1)}`;

/** The path of the engine's `Log`. */
export const ENGINE_LOG_PATH = "/pulumirpc.Engine/Log";
