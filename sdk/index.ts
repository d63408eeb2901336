/** Public surface of the sdk: the client, its building blocks, the error hierarchy and the schemas. */
export { ComputeClient, type AccountResources } from "./client";
export { SDK_VERSION } from "./version";
export * from "./core/errors";
export * from "./core/schema";
export * from "./core/net";
export * from "./core/http";
export * from "./core/path";
export * from "./core/retry";
export * from "./core/pagination";
export * from "./core/waiters";
export { REDACTED } from "./core/redact";
export * from "./resources/regions";
export * from "./resources/vpcs";
export * from "./resources/events";
export * from "./resources/support";
