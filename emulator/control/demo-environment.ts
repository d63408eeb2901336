/**
 * The environment the examples and the demo expect: compute instances (public addresses, a disk)
 * and a nodebalancer, objects this API does not create. `compute-emulator --demo-environment`
 * seeds it for programs run from a shell; the demo seeds its embedded emulator the same way.
 */
import type { EmulatorControl } from "./control";
import type { AccountState } from "../core/state";
import { COMPUTES } from "../services/computes/store";
import { NODEBALANCERS } from "../services/nodebalancers/store";

const WEB_1 = "web-1";
const WEB_2 = "web-2";
const BALANCER = "web-lb";

export interface DemoEnvironment {
  computeIds: number[];
  nodebalancerId: number;
  diskId: number;
}

export function seedDemoEnvironment(control: EmulatorControl): DemoEnvironment {
  const web1 = control.seedCompute({
    label: WEB_1,
    region: "us-iad",
    ipv4: ["198.51.100.10"],
    disks: [{ label: "Ubuntu 24.04 Disk", size: 25088 }],
  });
  const web2 = control.seedCompute({ label: WEB_2, region: "us-iad", ipv4: ["198.51.100.11"] });
  const balancer = control.seedNodeBalancer({ label: BALANCER, region: "us-iad" });
  return { computeIds: [web1.id, web2.id], nodebalancerId: balancer.id, diskId: web1.disks![0]!.id };
}

/** The environment as a state file brought it back, if it holds one. */
export function findDemoEnvironment(account: AccountState): DemoEnvironment | undefined {
  const computes = [WEB_1, WEB_2].map((label) => COMPUTES.of(account).find((c) => c.label === label));
  const balancer = NODEBALANCERS.of(account).find((n) => n.label === BALANCER);
  const disk = computes[0]?.disks?.[0];
  if (!computes[0] || !computes[1] || !balancer || !disk) return undefined;
  return { computeIds: [computes[0].id, computes[1].id], nodebalancerId: balancer.id, diskId: disk.id };
}

/** The stack config the examples read the seeded ids from. */
export function demoEnvironmentConfig(environment: DemoEnvironment): Record<string, string> {
  return {
    "compute-quickstart:nodebalancerId": String(environment.nodebalancerId),
    "compute-examples:diskId": String(environment.diskId),
  };
}
