/**
 * pulumi-compute: Pulumi resources and data functions for the compute cloud's API v4.
 *
 * ```ts
 * import * as compute from "pulumi-compute";
 * const vpc = new compute.Vpc("app", { label: "app-net", region: "us-east" });
 * ```
 */
import { assertPulumiLoadable, watchInlinePrograms } from "./launch/peer";

// Before anything loads @pulumi/pulumi (a peer dependency): without it, one line saying what to install.
assertPulumiLoadable();
// Before an Automation API program runs: where its engine starts the provider plugin (see launch/peer.ts).
watchInlinePrograms();

// Every resource class, its `Args`, and the input and output types its file offers (generated from the specs).
export * from "./classes/resource-classes";
// Data functions, each with its `…Output` form (Inputs in, an Output out): everything each area's module
// exports (test/checks/kind-lists.test.ts holds that every module of provider/functions/ is here).
export * from "./functions/computes";
export * from "./functions/databases";
export * from "./functions/domains";
export * from "./functions/firewalls";
export * from "./functions/images";
export * from "./functions/ips";
export * from "./functions/regions";
export * from "./functions/vlans";
export * from "./functions/vpc-ips";
export * from "./functions/vpcs";
export type { FunctionOptions, InputArgs, OutputFunction } from "./functions/client";
export type { MetaArgs, TimeoutsArgs } from "./classes/resource";
export { ComputeClient } from "../sdk/client";
// The Automation API's project settings with this package's plugin declared (preview support).
export { withComputePlugins, PLUGINS_PATH, type ProjectSettingsWithPlugins } from "./launch/plugins";
// The compute-guardrails policy pack's launcher: `policyPacks: [GUARDRAILS]` (docs/guides/policy.md).
export { GUARDRAILS, GUARDRAILS_PATH } from "./launch/plugins";
