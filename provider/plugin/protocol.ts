/**
 * The gRPC definitions the plugin serves, as `@pulumi/pulumi` (the project's peer dependency) ships
 * them: the provider and engine protocols, the status and well-known messages, and the gRPC
 * library those generated modules use, all resolved from `@pulumi/pulumi`'s own folder so the
 * server and the message classes are the very instances that package loads.
 */
import { createRequire } from "node:module";
import type * as grpc from "@grpc/grpc-js";
import type * as anyproto from "google-protobuf/google/protobuf/any_pb";
import type * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import type * as structproto from "google-protobuf/google/protobuf/struct_pb";
import type * as enginegrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import type * as engineproto from "@pulumi/pulumi/proto/engine_pb";
import type * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import type * as provgrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as provproto from "@pulumi/pulumi/proto/provider_pb";
import type * as statusproto from "@pulumi/pulumi/proto/status_pb";

export interface Protocol {
  grpc: typeof grpc;
  provider: typeof provproto;
  service: typeof provgrpc.ResourceProviderService;
  plugin: typeof plugproto;
  engine: typeof engineproto;
  engineClient: typeof enginegrpc.EngineClient;
  status: typeof statusproto;
  any: typeof anyproto;
  empty: typeof emptyproto;
  struct: typeof structproto;
}

/** Loads the protocol from the `@pulumi/pulumi` that resolves from here (the project's). */
export function loadProtocol(): Protocol {
  const pulumiRequire = createRequire(require.resolve("@pulumi/pulumi/package.json"));
  return {
    grpc: pulumiRequire("@grpc/grpc-js") as typeof grpc,
    provider: pulumiRequire("./proto/provider_pb") as typeof provproto,
    service: (pulumiRequire("./proto/provider_grpc_pb") as typeof provgrpc).ResourceProviderService,
    plugin: pulumiRequire("./proto/plugin_pb") as typeof plugproto,
    engine: pulumiRequire("./proto/engine_pb") as typeof engineproto,
    engineClient: (pulumiRequire("./proto/engine_grpc_pb") as typeof enginegrpc).EngineClient,
    status: pulumiRequire("./proto/status_pb") as typeof statusproto,
    any: pulumiRequire("google-protobuf/google/protobuf/any_pb") as typeof anyproto,
    empty: pulumiRequire("google-protobuf/google/protobuf/empty_pb") as typeof emptyproto,
    struct: pulumiRequire("google-protobuf/google/protobuf/struct_pb") as typeof structproto,
  };
}
