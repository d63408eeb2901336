/** How the contract tests name what a real client reached, from the emulator's request log. */
import { findEndpoint } from "../../sdk/endpoints";

/**
 * `/v4/vpcs/123/subnets?page=1` (or on `/v4beta`) → `GET /v4/vpcs/{vpcId}/subnets`: the sdk's own
 * matcher (`findEndpoint`, a literal segment winning over a parameter), written on the `/v4` base. A
 * trailing slash (`POST /networking/ips/`, as `@linode/api-v4` sends it) names the same endpoint, as
 * on the API.
 */
export function endpointOf(method: string, path: string): string {
  const bare = path
    .split("?")[0]!
    .replace(/^\/v4(beta)?(?=\/)/, "")
    .replace(/(.)\/$/, "$1");
  const match = findEndpoint(method, bare);
  return match ? `${method} /v4${match.endpoint.path}` : `${method} (unknown) ${path.split("?")[0]}`;
}

/** What both official clients' compute lives reach (besides each one's own calls). */
export const COMPUTE_LIFE_ENDPOINTS = [
  "POST /v4/compute/instances",
  "PUT /v4/compute/instances/{computeId}",
  "DELETE /v4/compute/instances/{computeId}",
  "POST /v4/compute/instances/{computeId}/boot",
  "POST /v4/compute/instances/{computeId}/shutdown",
  "POST /v4/compute/instances/{computeId}/reboot",
  "POST /v4/compute/instances/{computeId}/resize",
  "POST /v4/compute/instances/{computeId}/rebuild",
  "GET /v4/compute/instances/{computeId}/ips",
  "POST /v4/compute/instances/{computeId}/configs",
  "PUT /v4/compute/instances/{computeId}/configs/{configId}",
  "DELETE /v4/compute/instances/{computeId}/configs/{configId}",
  "POST /v4/compute/instances/{computeId}/configs/{configId}/interfaces",
  "POST /v4/compute/instances/{computeId}/configs/{configId}/interfaces/order",
  "PUT /v4/compute/instances/{computeId}/configs/{configId}/interfaces/{interfaceId}",
  "DELETE /v4/compute/instances/{computeId}/configs/{configId}/interfaces/{interfaceId}",
  "GET /v4/compute/types",
  "GET /v4/compute/types/{typeId}",
];
