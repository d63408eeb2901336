/** The examples the demo runner can run (`npm run demo -- <name>`). */
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { quickstart } from "./quickstart/program";
import { vpcExample } from "./vpc/program";
import { networkingExample } from "./networking/program";
import { dnsExample } from "./dns/program";
import { databasesExample } from "./databases/program";
import { imagesExample } from "./images/program";

export const EXAMPLES: Record<string, { program: PulumiFn; what: string }> = {
  quickstart: { program: quickstart, what: "every resource together (the default)" },
  vpc: { program: vpcExample, what: "a VPC with two subnets" },
  networking: { program: networkingExample, what: "firewalls, a firewall device and an IPv6 range" },
  dns: { program: dnsExample, what: "a zone with records and reverse DNS" },
  databases: { program: databasesExample, what: "a PostgreSQL database" },
  images: { program: imagesExample, what: "an image captured from a disk and one uploaded" },
};
