/**
 * A team's stacks, for the team e2e test and the team benchmark: one project folder per stack
 * under one repository folder (as a team keeps `network/`, `app-a/`, … in one repository), all on
 * one shared backend (a `postgres://` URL), credentials in the environment as CI gives them.
 *
 * - `network`: a VPC and its subnet, a firewall and the shared DNS zone; it exports their ids.
 * - `app-<x>`: reads the zone's id from the network stack through a `StackReference`, and puts
 *   its own records into that zone.
 *
 * Each stack is driven through the Automation API with an inline program; the Pulumi.yaml it
 * writes into the project folder names the backend, so `pulumi` and `pulumi-compute drift --all`
 * run in that folder see the same stacks.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { LocalWorkspace, type PulumiFn, type Stack } from "@pulumi/pulumi/automation";
import { Domain, DomainRecord, Firewall, Vpc, VpcSubnet } from "../../provider";
import { resultsFromEvents } from "../../provider/testing/event-results";
import { pulumiCommand } from "../../provider/stack/pulumi-cli";
import { PASSPHRASE, REPO_ROOT } from "./engine";
import { withComputePlugins } from "../../provider/launch/plugins";

/** The stack name every project of the team uses (`organization/<project>/prod` in a diy backend). */
export const TEAM_STACK = "prod";
export const NETWORK = "network";

export interface Team {
  /** The repository folder holding one folder per project. */
  root: string;
  backendUrl: string;
  /** The environment a runner has: backend, passphrase, API token and URL, the engine offline. */
  env: Record<string, string>;
}

export function teamEnv(root: string, backendUrl: string, api: { url: string; token: string }): Team {
  return {
    root,
    backendUrl,
    env: {
      PULUMI_BACKEND_URL: backendUrl,
      PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_HOME: process.env.PULUMI_HOME ?? path.join(root, ".pulumi-home"),
      COMPUTE_TOKEN: api.token,
      COMPUTE_API_URL: api.url,
    },
  };
}

/**
 * The stack `prod` of `project`, in its folder under the team's root. Each call is a separate
 * workspace, as each CI runner has its own: two calls for one project are two runners.
 */
export async function teamStack(team: Team, project: string, program: PulumiFn): Promise<Stack> {
  const workDir = path.join(team.root, project);
  fs.mkdirSync(workDir, { recursive: true });
  // Its operations' summaries and outputs come from their events (`event-results.ts`).
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: TEAM_STACK, projectName: project, program },
    {
      workDir,
      pulumiCommand: await pulumiCommand(),
      envVars: team.env,
      // The provider process starts in `main`; from there `pulumi-compute` resolves to this repo.
      projectSettings: withComputePlugins({ name: project, runtime: "nodejs", main: REPO_ROOT, backend: { url: team.backendUrl } }),
    },
  );
  return resultsFromEvents(stack);
}

/** The network team's stack: the shared VPC, subnet, firewall and DNS zone, their ids exported. */
export const networkProgram =
  (zone: string): PulumiFn =>
  async () => {
    const vpc = new Vpc("shared", { label: "team-shared", region: "us-iad" });
    const subnet = new VpcSubnet("apps", { vpcId: vpc.id, label: "apps", ipv4: "10.10.0.0/24" });
    const firewall = new Firewall("apps", {
      label: "team-apps",
      inboundPolicy: "DROP",
      outboundPolicy: "ACCEPT",
      inbound: [{ action: "ACCEPT", protocol: "TCP", ports: "443", addresses: { ipv4: ["0.0.0.0/0"] }, label: "https" }],
    });
    const domain = new Domain("zone", { domain: zone, type: "master", soaEmail: `hostmaster@${zone}` });
    return { vpcId: vpc.id, subnetId: subnet.id, firewallId: firewall.id, domainId: domain.id, zone: domain.domain };
  };

/** An app team's stack: `records` A records in the network's zone, read through a StackReference. */
export const appProgram =
  (app: string, records: number): PulumiFn =>
  async () => {
    const network = new pulumi.StackReference(`organization/${NETWORK}/${TEAM_STACK}`);
    const domainId = network.requireOutput("domainId");
    for (let i = 0; i < records; i++) {
      new DomainRecord(`r${i}`, { domainId, type: "A", name: `${app}-${i}`, target: `10.0.${(i >> 8) & 255}.${i & 255}` });
    }
    return { records, zone: network.requireOutput("zone") };
  };
