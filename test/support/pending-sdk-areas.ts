/**
 * Emulator services whose endpoints the sdk does not declare yet, and why. Each area's declarations
 * live beside its service meanwhile and are to move, unchanged, into `sdk/resources/<area>.ts`;
 * then its entry goes (the registration and coverage checks hold it to the sdk's rules again).
 */
import { COMPUTE_ENDPOINTS } from "../../emulator/services/computes/contract";
import { endpointsOf, type AnyEndpoint } from "../../sdk/core/endpoint";

export const PENDING_SDK_AREAS: Record<string, { endpoints: readonly AnyEndpoint[]; why: string }> = {
  computes: {
    endpoints: endpointsOf(COMPUTE_ENDPOINTS),
    why: "issue 59: the emulator serves /compute/* now; the sdk declares them after the sdk refactor (issue 58), from emulator/services/computes/contract.ts",
  },
};

/** Every endpoint a pending area declares. */
export const PENDING_SDK_ENDPOINTS: readonly AnyEndpoint[] = Object.values(PENDING_SDK_AREAS).flatMap((a) => a.endpoints);
