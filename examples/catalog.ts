/** The examples the demo runner can run (`npm run demo -- [--cli] <name>`). */
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { quickstart } from "./quickstart/program";
import { vpcExample } from "./vpc/program";
import { networkingExample } from "./networking/program";
import { dnsExample } from "./dns/program";
import { databasesExample } from "./databases/program";
import { imagesExample } from "./images/program";
import { recordSetExample } from "./record-set/program";

export interface Example {
  /** The program, run inline by the Automation API; none for a Pulumi YAML program, which only the CLI runs. */
  program?: PulumiFn;
  what: string;
  /** The folder of its Pulumi.yaml, from the repository root (the quickstart's is the root's). */
  folder: string;
  /** The project name in that Pulumi.yaml. */
  project: string;
}

const example = (name: string, program: PulumiFn, what: string): Example => ({
  program,
  what,
  folder: `examples/${name}`,
  project: `compute-example-${name}`,
});

/** Every example by name; the quickstart's program is inline (the benchmarks and tests run it). */
export const EXAMPLES: Record<string, Example> & { quickstart: Example & { program: PulumiFn } } = {
  quickstart: { program: quickstart, what: "every resource together (the default)", folder: "", project: "compute-quickstart" },
  vpc: example("vpc", vpcExample, "a VPC with two subnets"),
  networking: example("networking", networkingExample, "firewalls, a firewall device, firewall rules and an IPv6 range"),
  dns: example("dns", dnsExample, "a zone with records and reverse DNS"),
  databases: example("databases", databasesExample, "a PostgreSQL database"),
  images: example("images", imagesExample, "an image captured from a disk and one uploaded"),
  "record-set": example("record-set", recordSetExample, "a whole zone as one DomainRecordSet (exclusive)"),
  yaml: {
    what: "a Pulumi YAML program through the provider plugin: a VPC, a subnet, a MySQL database and a CNAME to it",
    folder: "examples/yaml",
    project: "compute-example-yaml",
  },
};
