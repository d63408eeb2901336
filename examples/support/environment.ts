/**
 * What the demo's emulator starts with: compute instances (public addresses, disks), a
 * nodebalancer — objects this API does not create, which the examples use.
 */
import type { RunningEmulator } from "../../emulator";

export interface SeededEnvironment {
  computeIds: number[];
  nodebalancerId: number;
  diskId: number;
}

export function seedEnvironment(emulator: RunningEmulator): SeededEnvironment {
  const web1 = emulator.control.seedCompute({ label: "web-1", region: "us-iad", ipv4: ["198.51.100.10"], disks: [{ label: "Ubuntu 24.04 Disk", size: 25088 }] });
  const web2 = emulator.control.seedCompute({ label: "web-2", region: "us-iad", ipv4: ["198.51.100.11"] });
  const balancer = emulator.control.seedNodeBalancer({ label: "web-lb", region: "us-iad" });
  return { computeIds: [web1.id, web2.id], nodebalancerId: balancer.id, diskId: web1.disks![0]!.id };
}
