/**
 * The classes and their arguments are generated from the specs (`provider/classes/resource-classes.ts`);
 * this pins them to what programs compiled against when they were written by hand: every output's
 * type is assignable to the type it had (at least as precise), and every argument accepts what it
 * accepted. The compiler checks it (`npm run build` type-checks the tests); the test counts the checks.
 */
import type { Input, OutputInstance } from "@pulumi/pulumi";
import type * as compute from "../../../provider";

type Value<O> = O extends OutputInstance<infer T> ? T : never;
/** Compiles only when `A` is assignable to `B`. */
const assignable = <_A extends B, B>(): true => true;

// Types as they were declared, where they do not fit on a line.
type SubnetsBefore = Array<{
  id: number;
  label: string;
  ipv4: string;
  computes: { id: number; interfaces: { id: number; active: boolean }[] }[];
  created: string;
  updated: string | null;
  ipv6?: unknown;
}>;
type Frequency = "weekly" | "monthly";
type WindowOutputBefore = { frequency: Frequency; duration: number; hourOfDay: number; dayOfWeek: number; weekOfMonth: number | null };
type WindowArgBefore = { frequency?: Frequency; duration: number; hourOfDay: number; dayOfWeek: number; weekOfMonth?: number | null };
type HostsBefore = { primary: string | null; secondary?: string | null | undefined; standby?: string | null | undefined };
type RulesBefore = Array<{
  action: "ACCEPT" | "DROP";
  protocol: "TCP" | "UDP" | "ICMP" | "IPENCAP";
  addresses: { ipv4?: string[] | undefined; ipv6?: string[] | undefined };
  ports?: string | null | undefined;
  label?: string | undefined;
  description?: string | undefined;
}> | null;
type RulesArgBefore =
  | Input<
      Input<{
        action: Input<"ACCEPT"> | Input<"DROP">;
        protocol: Input<"TCP"> | Input<"UDP"> | Input<"ICMP"> | Input<"IPENCAP">;
        addresses: Input<{ ipv4?: Input<Input<string>[]> | Input<undefined>; ipv6?: Input<Input<string>[]> | Input<undefined> }>;
        ports?: Input<string> | Input<undefined> | Input<null>;
        label?: Input<string> | Input<undefined>;
        description?: Input<string> | Input<undefined>;
      }>[]
    >
  | undefined;
type CommitTypeArgBefore = Input<"on"> | Input<"local"> | Input<"remote_write"> | Input<"remote_apply"> | Input<"off"> | undefined;
type RecordTypeArgBefore =
  Input<"A"> | Input<"AAAA"> | Input<"NS"> | Input<"MX"> | Input<"CNAME"> | Input<"TXT"> | Input<"SRV"> | Input<"PTR"> | Input<"CAA">;

/** Each output, then the type it was declared with. */
const outputs = [
  assignable<Value<compute.Vpc["label"]>, string>(),
  assignable<Value<compute.Vpc["region"]>, string>(),
  assignable<Value<compute.Vpc["description"]>, string>(),
  // The VPC's subnets are no output (another resource's life changes them); the data function has their type.
  assignable<Awaited<ReturnType<typeof compute.getVpcSubnets>>, SubnetsBefore>(),
  assignable<Value<compute.Vpc["created"]>, string>(),
  assignable<Value<compute.Vpc["updated"]>, string | null>(),
  assignable<Value<compute.Vpc["adoptId"]>, string | number | undefined>(),
  assignable<Value<compute.VpcSubnet["vpcId"]>, number>(),
  assignable<Value<compute.VpcSubnet["label"]>, string>(),
  assignable<Value<compute.VpcSubnet["ipv4"]>, string>(),
  assignable<Value<compute.VpcSubnet["created"]>, string>(),
  assignable<Value<compute.VpcSubnet["updated"]>, string | null>(),
  assignable<Value<compute.MysqlDatabase["label"]>, string>(),
  assignable<Value<compute.MysqlDatabase["region"]>, string>(),
  assignable<Value<compute.MysqlDatabase["type"]>, string>(),
  assignable<Value<compute.MysqlDatabase["engineId"]>, string>(),
  assignable<Value<compute.MysqlDatabase["clusterSize"]>, number>(),
  assignable<Value<compute.MysqlDatabase["encrypted"]>, boolean>(),
  assignable<Value<compute.MysqlDatabase["sslConnection"]>, boolean>(),
  assignable<Value<compute.MysqlDatabase["allowList"]>, string[]>(),
  assignable<Value<compute.MysqlDatabase["replicationType"]>, string>(),
  assignable<Value<compute.MysqlDatabase["updates"]>, WindowOutputBefore>(),
  assignable<Value<compute.MysqlDatabase["status"]>, string>(),
  assignable<Value<compute.MysqlDatabase["hosts"]>, HostsBefore>(),
  assignable<Value<compute.MysqlDatabase["port"]>, number>(),
  assignable<Value<compute.MysqlDatabase["version"]>, string>(),
  assignable<Value<compute.MysqlDatabase["engine"]>, string>(),
  assignable<Value<compute.MysqlDatabase["rootUsername"]>, string>(),
  assignable<Value<compute.MysqlDatabase["rootPassword"]>, string>(),
  assignable<Value<compute.MysqlDatabase["caCert"]>, string>(),
  assignable<Value<compute.MysqlDatabase["created"]>, string>(),
  assignable<Value<compute.MysqlDatabase["updated"]>, string>(),
  assignable<Value<compute.PostgresqlDatabase["replicationCommitType"]>, string>(),
  assignable<Value<compute.PostgresqlDatabase["label"]>, string>(),
  assignable<Value<compute.PostgresqlDatabase["region"]>, string>(),
  assignable<Value<compute.PostgresqlDatabase["type"]>, string>(),
  assignable<Value<compute.PostgresqlDatabase["engineId"]>, string>(),
  assignable<Value<compute.PostgresqlDatabase["clusterSize"]>, number>(),
  assignable<Value<compute.PostgresqlDatabase["encrypted"]>, boolean>(),
  assignable<Value<compute.PostgresqlDatabase["sslConnection"]>, boolean>(),
  assignable<Value<compute.PostgresqlDatabase["allowList"]>, string[]>(),
  assignable<Value<compute.PostgresqlDatabase["replicationType"]>, string>(),
  assignable<Value<compute.PostgresqlDatabase["updates"]>, WindowOutputBefore>(),
  assignable<Value<compute.PostgresqlDatabase["status"]>, string>(),
  assignable<Value<compute.PostgresqlDatabase["hosts"]>, HostsBefore>(),
  assignable<Value<compute.PostgresqlDatabase["port"]>, number>(),
  assignable<Value<compute.PostgresqlDatabase["version"]>, string>(),
  assignable<Value<compute.PostgresqlDatabase["engine"]>, string>(),
  assignable<Value<compute.PostgresqlDatabase["rootUsername"]>, string>(),
  assignable<Value<compute.PostgresqlDatabase["rootPassword"]>, string>(),
  assignable<Value<compute.PostgresqlDatabase["caCert"]>, string>(),
  assignable<Value<compute.PostgresqlDatabase["created"]>, string>(),
  assignable<Value<compute.PostgresqlDatabase["updated"]>, string>(),
  assignable<Value<compute.Domain["domain"]>, string>(),
  assignable<Value<compute.Domain["type"]>, "master" | "slave">(),
  assignable<Value<compute.Domain["status"]>, string>(),
  assignable<Value<compute.Domain["soaEmail"]>, string>(),
  assignable<Value<compute.Domain["masterIps"]>, string[]>(),
  assignable<Value<compute.Domain["axfrIps"]>, string[]>(),
  assignable<Value<compute.Domain["description"]>, string>(),
  assignable<Value<compute.Domain["group"]>, string>(),
  assignable<Value<compute.Domain["tags"]>, string[]>(),
  assignable<Value<compute.Domain["refreshSec"]>, number>(),
  assignable<Value<compute.Domain["retrySec"]>, number>(),
  assignable<Value<compute.Domain["expireSec"]>, number>(),
  assignable<Value<compute.Domain["ttlSec"]>, number>(),
  assignable<Value<compute.Domain["cloneFromId"]>, number | undefined>(),
  assignable<Value<compute.Domain["created"]>, string>(),
  assignable<Value<compute.Domain["updated"]>, string>(),
  assignable<Value<compute.DomainRecord["domainId"]>, number>(),
  assignable<Value<compute.DomainRecord["type"]>, string>(),
  assignable<Value<compute.DomainRecord["name"]>, string>(),
  assignable<Value<compute.DomainRecord["target"]>, string>(),
  assignable<Value<compute.DomainRecord["ttlSec"]>, number>(),
  assignable<Value<compute.DomainRecord["priority"]>, number | undefined>(), // recorded for the types it applies to
  assignable<Value<compute.DomainRecord["weight"]>, number | undefined>(), // recorded for the types it applies to
  assignable<Value<compute.DomainRecord["port"]>, number | undefined>(), // recorded for the types it applies to
  assignable<Value<compute.DomainRecord["protocol"]>, string | null | undefined>(),
  assignable<Value<compute.DomainRecord["service"]>, string | null | undefined>(),
  assignable<Value<compute.DomainRecord["tag"]>, string | null | undefined>(),
  assignable<Value<compute.DomainRecord["domain"]>, string>(),
  assignable<Value<compute.DomainRecord["fqdn"]>, string>(),
  assignable<Value<compute.Firewall["label"]>, string>(),
  assignable<Value<compute.Firewall["tags"]>, string[]>(),
  assignable<Value<compute.Firewall["status"]>, string>(),
  assignable<Value<compute.Firewall["inbound"]>, RulesBefore>(),
  assignable<Value<compute.Firewall["outbound"]>, RulesBefore>(),
  assignable<Value<compute.Firewall["inboundPolicy"]>, string>(),
  assignable<Value<compute.Firewall["outboundPolicy"]>, string>(),
  assignable<Value<compute.Firewall["devices"]>, { computes: number[]; nodebalancers: number[] } | undefined>(),
  assignable<Value<compute.Firewall["created"]>, string>(),
  assignable<Value<compute.Firewall["updated"]>, string | null>(),
  assignable<Value<compute.Firewall["adoptId"]>, string | number | undefined>(),
  assignable<Value<compute.FirewallDevice["firewallId"]>, number>(),
  assignable<Value<compute.FirewallDevice["entityId"]>, number>(),
  assignable<Value<compute.FirewallDevice["entityType"]>, string>(),
  assignable<Value<compute.FirewallDevice["entity"]>, { id: number; type: string; label: string | null; url: string }>(),
  assignable<Value<compute.FirewallDevice["created"]>, string>(),
  assignable<Value<compute.FirewallDevice["updated"]>, string | null>(),
  assignable<Value<compute.Ipv6Range["prefixLength"]>, number>(),
  assignable<Value<compute.Ipv6Range["computeId"]>, number | null>(),
  assignable<Value<compute.Ipv6Range["routeTarget"]>, string | null>(),
  assignable<Value<compute.Ipv6Range["range"]>, string>(),
  assignable<Value<compute.Ipv6Range["region"]>, string>(),
  assignable<Value<compute.ReverseDns["address"]>, string>(),
  assignable<Value<compute.ReverseDns["rdns"]>, string>(),
  assignable<Value<compute.ReverseDns["computeId"]>, number | null>(),
  assignable<Value<compute.ReverseDns["region"]>, string>(),
  assignable<Value<compute.ReverseDns["type"]>, string>(),
  assignable<Value<compute.Image["diskId"]>, number | undefined>(),
  assignable<Value<compute.Image["filePath"]>, string | undefined>(),
  assignable<Value<compute.Image["region"]>, string | undefined>(),
  assignable<Value<compute.Image["fileHash"]>, string | undefined>(),
  assignable<Value<compute.Image["label"]>, string>(),
  assignable<Value<compute.Image["description"]>, string>(),
  assignable<Value<compute.Image["cloudInit"]>, boolean>(),
  assignable<Value<compute.Image["status"]>, string>(),
  assignable<Value<compute.Image["size"]>, number>(),
  assignable<Value<compute.Image["capabilities"]>, string[]>(),
  assignable<Value<compute.Image["createdBy"]>, string | null>(),
  assignable<Value<compute.Image["created"]>, string>(),
  assignable<Value<compute.Image["updated"]>, string | null>(),
];

/** What each argument accepted, then the argument. */
const args = [
  assignable<string | OutputInstance<string> | Promise<string>, compute.VpcArgs["label"]>(),
  assignable<string | OutputInstance<string> | Promise<string>, compute.VpcArgs["region"]>(),
  assignable<Input<string> | undefined, compute.VpcArgs["description"]>(),
  assignable<Input<string> | Input<number>, compute.VpcSubnetArgs["vpcId"]>(),
  assignable<string | OutputInstance<string> | Promise<string>, compute.VpcSubnetArgs["label"]>(),
  assignable<string | OutputInstance<string> | Promise<string>, compute.VpcSubnetArgs["ipv4"]>(),
  assignable<string | OutputInstance<string> | Promise<string>, compute.MysqlDatabaseArgs["label"]>(),
  assignable<string | OutputInstance<string> | Promise<string>, compute.MysqlDatabaseArgs["region"]>(),
  assignable<string | OutputInstance<string> | Promise<string>, compute.MysqlDatabaseArgs["type"]>(),
  assignable<string | OutputInstance<string> | Promise<string>, compute.MysqlDatabaseArgs["engineId"]>(),
  assignable<Input<1> | Input<3> | undefined, compute.MysqlDatabaseArgs["clusterSize"]>(),
  assignable<Input<false> | Input<true> | undefined, compute.MysqlDatabaseArgs["encrypted"]>(),
  assignable<Input<false> | Input<true> | undefined, compute.MysqlDatabaseArgs["sslConnection"]>(),
  assignable<Input<Input<string>[]> | undefined, compute.MysqlDatabaseArgs["allowList"]>(),
  assignable<Input<"none"> | Input<"asynch"> | Input<"semi_synch"> | undefined, compute.MysqlDatabaseArgs["replicationType"]>(),
  assignable<string | OutputInstance<string> | Promise<string>, compute.PostgresqlDatabaseArgs["label"]>(),
  assignable<string | OutputInstance<string> | Promise<string>, compute.PostgresqlDatabaseArgs["region"]>(),
  assignable<string | OutputInstance<string> | Promise<string>, compute.PostgresqlDatabaseArgs["type"]>(),
  assignable<string | OutputInstance<string> | Promise<string>, compute.PostgresqlDatabaseArgs["engineId"]>(),
  assignable<Input<1> | Input<3> | undefined, compute.PostgresqlDatabaseArgs["clusterSize"]>(),
  assignable<Input<false> | Input<true> | undefined, compute.PostgresqlDatabaseArgs["encrypted"]>(),
  assignable<Input<false> | Input<true> | undefined, compute.PostgresqlDatabaseArgs["sslConnection"]>(),
  assignable<Input<Input<string>[]> | undefined, compute.PostgresqlDatabaseArgs["allowList"]>(),
  assignable<Input<"none"> | Input<"asynch"> | undefined, compute.PostgresqlDatabaseArgs["replicationType"]>(),
  assignable<CommitTypeArgBefore, compute.PostgresqlDatabaseArgs["replicationCommitType"]>(),
  assignable<string | OutputInstance<string> | Promise<string>, compute.DomainArgs["domain"]>(),
  assignable<Input<"master"> | Input<"slave">, compute.DomainArgs["type"]>(),
  assignable<Input<"active"> | Input<"disabled"> | undefined, compute.DomainArgs["status"]>(),
  assignable<Input<string> | undefined, compute.DomainArgs["soaEmail"]>(),
  assignable<Input<Input<string>[]> | undefined, compute.DomainArgs["masterIps"]>(),
  assignable<Input<Input<string>[]> | undefined, compute.DomainArgs["axfrIps"]>(),
  assignable<Input<string> | undefined, compute.DomainArgs["description"]>(),
  assignable<Input<string> | undefined, compute.DomainArgs["group"]>(),
  assignable<Input<Input<string>[]> | undefined, compute.DomainArgs["tags"]>(),
  assignable<Input<number> | undefined, compute.DomainArgs["refreshSec"]>(),
  assignable<Input<number> | undefined, compute.DomainArgs["retrySec"]>(),
  assignable<Input<number> | undefined, compute.DomainArgs["expireSec"]>(),
  assignable<Input<number> | undefined, compute.DomainArgs["ttlSec"]>(),
  assignable<Input<string> | Input<number> | undefined, compute.DomainArgs["cloneFromId"]>(),
  assignable<Input<string> | Input<number>, compute.DomainRecordArgs["domainId"]>(),
  assignable<RecordTypeArgBefore, compute.DomainRecordArgs["type"]>(),
  assignable<Input<string> | undefined, compute.DomainRecordArgs["name"]>(),
  assignable<string | OutputInstance<string> | Promise<string>, compute.DomainRecordArgs["target"]>(),
  assignable<Input<number> | undefined, compute.DomainRecordArgs["ttlSec"]>(),
  assignable<Input<number> | undefined, compute.DomainRecordArgs["priority"]>(),
  assignable<Input<number> | undefined, compute.DomainRecordArgs["weight"]>(),
  assignable<Input<number> | undefined, compute.DomainRecordArgs["port"]>(),
  assignable<Input<string> | undefined, compute.DomainRecordArgs["protocol"]>(),
  assignable<Input<string> | undefined, compute.DomainRecordArgs["service"]>(),
  assignable<Input<"issue"> | Input<"issuewild"> | Input<"iodef"> | undefined, compute.DomainRecordArgs["tag"]>(),
  assignable<string | OutputInstance<string> | Promise<string>, compute.FirewallArgs["label"]>(),
  assignable<Input<Input<string>[]> | undefined, compute.FirewallArgs["tags"]>(),
  assignable<Input<"disabled"> | Input<"enabled"> | undefined, compute.FirewallArgs["status"]>(),
  assignable<RulesArgBefore, compute.FirewallArgs["inbound"]>(),
  assignable<RulesArgBefore, compute.FirewallArgs["outbound"]>(),
  assignable<Input<"ACCEPT"> | Input<"DROP">, compute.FirewallArgs["inboundPolicy"]>(),
  assignable<Input<"ACCEPT"> | Input<"DROP">, compute.FirewallArgs["outboundPolicy"]>(),
  assignable<Input<compute.FirewallDevicesArgs> | undefined, compute.FirewallArgs["devices"]>(),
  assignable<Input<string> | Input<number>, compute.FirewallDeviceArgs["firewallId"]>(),
  assignable<Input<string> | Input<number>, compute.FirewallDeviceArgs["entityId"]>(),
  assignable<Input<"compute"> | Input<"nodebalancer">, compute.FirewallDeviceArgs["entityType"]>(),
  assignable<number | OutputInstance<number> | Promise<number>, compute.Ipv6RangeArgs["prefixLength"]>(),
  assignable<Input<string> | Input<number> | undefined, compute.Ipv6RangeArgs["computeId"]>(),
  assignable<Input<string> | undefined, compute.Ipv6RangeArgs["routeTarget"]>(),
  assignable<string | OutputInstance<string> | Promise<string>, compute.ReverseDnsArgs["address"]>(),
  assignable<string | OutputInstance<string> | Promise<string>, compute.ReverseDnsArgs["rdns"]>(),
  assignable<Input<string> | Input<number> | undefined, compute.ImageArgs["diskId"]>(),
  assignable<Input<string> | undefined, compute.ImageArgs["filePath"]>(),
  assignable<Input<string> | undefined, compute.ImageArgs["region"]>(),
  assignable<Input<string> | undefined, compute.ImageArgs["label"]>(),
  assignable<Input<string> | undefined, compute.ImageArgs["description"]>(),
  assignable<Input<false> | Input<true> | undefined, compute.ImageArgs["cloudInit"]>(),
  // The maintenance window: its declared shape (the argument itself was `unknown` by accident).
  assignable<WindowArgBefore, compute.MaintenanceWindowArgs>(),
  assignable<compute.MaintenanceWindowArgs, WindowArgBefore>(),
];

test("every output keeps a type at least as precise as before, and every argument accepts what it did", () => {
  // 127 until issue 13: DomainRecord dropped `created`/`updated`, and its type-specific fields
  // (priority, weight, port, protocol, service, tag) are absent for the types they do not apply to.
  expect(outputs.length).toBe(122);
  expect(args.length).toBe(74);
});
