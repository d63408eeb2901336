/** Every resource spec by kind: the registry serves them, the docs generator lists them. */
import type { ResourceSpec } from "./engine/spec";
import { vpcSpec } from "./resources/vpc";
import { vpcSubnetSpec } from "./resources/vpc-subnet";

export const RESOURCE_SPECS: Record<string, ResourceSpec> = {
  [vpcSpec.name]: vpcSpec,
  [vpcSubnetSpec.name]: vpcSubnetSpec,
};
