/**
 * `pulumi-compute/policy`: guardrails for this package's resources, as a `@pulumi/policy` pack
 * (`compute-guardrails`), enforced at preview by `pulumi preview --policy-pack
 * node_modules/pulumi-compute/policy/compute-guardrails`. Each policy reads the resource's inputs
 * in the program's names, through either door (dynamic resources and the provider plugin), checks
 * what preview knows and says what it checks at `up`.
 */
import { databaseAvailability } from "./policies/database-availability";
import { databaseExposure } from "./policies/database-exposure";
import { databaseTransport } from "./policies/database-transport";
import { firewallExposure } from "./policies/firewall-exposure";
import { instanceFirewall } from "./policies/instance-firewall";
import { recordTtl } from "./policies/record-ttl";
import { requiredTags } from "./policies/required-tags";

/** The pack's name, as the engine shows it. */
export const POLICY_PACK = "compute-guardrails";

/** Every policy of the pack, in the order the reference lists them. */
export const COMPUTE_POLICIES = [
  firewallExposure,
  databaseExposure,
  databaseTransport,
  databaseAvailability,
  recordTtl,
  requiredTags,
  instanceFirewall,
];

export { definePolicy, type ComputePolicy, type Setting } from "./define";
