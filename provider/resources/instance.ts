/**
 * `compute:Instance`: a compute instance deployed from an image, with its configuration profile's
 * network interfaces (`public`, `vlan`, `vpc`).
 *
 * - **Waiting.** Create waits in `settle` until the instance is `running` (or `offline` with
 *   `booted: false`), saying on its row what it waits for; every change that moves the status
 *   (a resize, a boot or shutdown, a reboot) is waited out the same way.
 * - **In place.** `label` and `tags` (one PUT); `type` (a resize, waited for; a running instance
 *   comes back up); `booted` (a boot or a shutdown); `interfaces` (the profile's interfaces replaced
 *   whole; a running instance is rebooted so they take effect, which the reference says).
 * - **Replaces.** `region`, `image`, `rootPass`, `authorizedKeys`, `privateIp` and `firewallId`: the
 *   API sets them at creation only (a firewall is changed in place with `FirewallDevice`). With
 *   `rebuildOnImageChange`, a new `image` (with its `rootPass` and `authorizedKeys`) is a rebuild in
 *   place instead, waited for.
 * - **Said at preview.** What an update does beside its fields (`updateEffects`): the reboot that
 *   applies new interfaces, the resize's downtime, the rebuild.
 * - **Secrets.** `rootPass` is secret (encrypted in state), never in a message. It goes with each
 *   deployment of the image (create, replacement, rebuild) and is refused missing there at check;
 *   an adopted or imported instance has none, since the API never reads it back.
 * - **Outputs.** `ipv4`, `ipv6`, `status`, `specs`, and `vpcIpv4`, the address of the `vpc`
 *   interface, so a `DomainRecord` or a database allow list can take it.
 */
import { z } from "zod";
import { ApiError, WaitError, isNotFound } from "../../sdk/core/errors";
import {
  COMPUTE_REASONS,
  ComputeCreateRequest,
  ConfigInterfaceRequest,
  InterfaceIpv4,
  configInterfaceErrors,
  type Compute,
  type ComputeStatus,
  type ComputeUpdateRequest,
  type Config,
} from "../../sdk/resources/computes";
import type { Vpc } from "../../sdk/resources/vpcs";
import { actExactlyOnce, type Action } from "../engine/actions";
import type { ProviderContext } from "../engine/context";
import { resourceSpec, type Call, type Failure, type Values } from "../engine/spec";
import { waitReporter } from "../engine/status";
import { changedFields } from "../engine/diff";
import { viaWire } from "../engine/schemas";
import { camelText, isRecord, isUnknown, snakeDeep } from "../engine/values";
import { MINUTE, apiId, idField, idReference, normalizeId, regionOnOffer, timestamps, uniqueLabel } from "./common";

const fields = ComputeCreateRequest.shape;
const iface = ConfigInterfaceRequest.shape;

/** The capability a region lists when instances can be made in it (`GET /regions`). */
const COMPUTE_CAPABILITY = "Computes";

/** One interface as a program writes it: the API's fields in camelCase, `subnetId` another resource's id. */
const InterfaceInput = z.strictObject({
  purpose: iface.purpose,
  label: z.string().optional(),
  ipamAddress: z.string().optional(),
  primary: z.boolean().optional(),
  subnetId: idReference("subnetId").optional(),
  // `nat11` is the API's `nat_1_1` (as the bridged provider spells it): `any`, or one of the instance's public addresses.
  ipv4: viaWire<{ vpc?: string; nat11?: string }>(InterfaceIpv4, (v) => (isRecord(v) ? wireIpv4(v) : v), camelText).optional(),
  ipRanges: iface.ip_ranges.unwrap().unwrap().optional(),
});

/** An interface's `ipv4` as the API spells it: `nat11` is `nat_1_1`. */
function wireIpv4(ipv4: Values): Values {
  if (ipv4.nat11 === undefined) return ipv4;
  const { nat11, ...rest } = ipv4;
  return { ...rest, nat_1_1: nat11 };
}

/** An interface in canonical form, for comparing: what it sets and nothing else. */
function canonicalInterface(value: unknown): unknown {
  if (!isRecord(value)) return value;
  const out: Values = { purpose: value.purpose };
  if (value.label !== undefined && value.label !== null && value.label !== "") out.label = value.label;
  if (value.ipamAddress) out.ipamAddress = value.ipamAddress;
  if (value.primary === true) out.primary = true;
  if (value.subnetId !== undefined && value.subnetId !== null) out.subnetId = normalizeId(value.subnetId);
  const ipv4 = isRecord(value.ipv4) ? value.ipv4 : {};
  const named = Object.fromEntries(["vpc", "nat11"].flatMap((k) => (typeof ipv4[k] === "string" && ipv4[k] !== "" ? [[k, ipv4[k]]] : [])));
  if (Object.keys(named).length > 0) out.ipv4 = named;
  if (Array.isArray(value.ipRanges) && value.ipRanges.length > 0) out.ipRanges = value.ipRanges;
  return out;
}
const canonicalInterfaces = (value: unknown): unknown => (Array.isArray(value) ? value.map(canonicalInterface) : value);

/** The interfaces as the API takes them: snake_case, and `nat11` spelled `nat_1_1`. */
function wireInterfaces(value: unknown): unknown {
  const list = canonicalInterfaces(value);
  if (!Array.isArray(list)) return list;
  return list.map((i: Values) => {
    const wire = snakeDeep(i) as Values;
    return isRecord(wire.ipv4) ? { ...wire, ipv4: wireIpv4(wire.ipv4) } : wire;
  });
}

/** Statuses in which the instance is up (or on its way up): what `booted: true` reads as. */
const UP: readonly string[] = ["running", "booting", "rebooting", "provisioning", "resizing", "rebuilding", "migrating"];

/** An instance as the hooks return it: the API's record, its profile's interfaces and its VPC address. */
type InstanceRecord = Compute & { interfaces?: Values[]; vpc_ipv4?: string | null; config_id?: number };

/** A value the API never reads back (a password, a create-only choice): what the program gave, or state recorded. */
const given =
  (key: string) =>
  (_record: unknown, values: Values): unknown =>
    values[key];

/** The interfaces of a profile as the program writes them; `ipv4.vpc` only where the program named the address. */
function interfacesOf(config: Config | undefined, recorded: unknown): Values[] | undefined {
  if (!config) return undefined;
  const named = Array.isArray(recorded) ? recorded : [];
  return config.interfaces.map((i, n) => {
    const was = named[n] as Values | undefined;
    const namedAddress = isRecord(was?.ipv4) && typeof was.ipv4.vpc === "string";
    // `any` reads back as the address it mapped: the program's `any` stays while a mapping is there.
    const namedNat = isRecord(was?.ipv4) && typeof was.ipv4.nat11 === "string" ? was.ipv4.nat11 : undefined;
    const nat = i.ipv4?.nat_1_1 ? (namedNat === "any" ? "any" : i.ipv4.nat_1_1) : undefined;
    const ipv4 = { ...(namedAddress && i.ipv4?.vpc && { vpc: i.ipv4.vpc }), ...(nat !== undefined && { nat_1_1: nat }) };
    return {
      purpose: i.purpose,
      ...(i.label !== null && { label: i.label }),
      ...(i.ipam_address !== null && { ipam_address: i.ipam_address }),
      ...(i.primary && { primary: true }),
      ...(i.subnet_id !== null && { subnet_id: i.subnet_id }),
      ...(Object.keys(ipv4).length > 0 && { ipv4 }),
      ...(i.ip_ranges.length > 0 && { ip_ranges: i.ip_ranges }),
    };
  });
}

/**
 * Whether the next up deploys the instance from its image, which takes the root password: a new
 * instance (one the program adopts exists already), a replacement, or a rebuild. `olds` are the
 * inputs last checked (`{}` for a new resource); what changes is the engine's diff of them.
 */
function deploys(inputs: Values, olds: Values): boolean {
  if (Object.keys(olds).length === 0) return inputs.adoptId === undefined;
  const { changed, replaces } = changedFields(instanceSpec, olds, inputs);
  return replaces.length > 0 || changed.includes("image");
}

/** The refusal of a deployment without a root password, in the program's words. */
export const ROOT_PASS_TO_DEPLOY =
  "required when this up deploys the instance from its image (a new instance, a replacement or a rebuild): give the root " +
  "password from the stack's secret config (pulumi config set --secret). An instance the program adopts (adoptId, " +
  "pulumi-compute import) goes without one until a change deploys it again, as the API never reads it back";

/** An image change rebuilds in place when the program asks for it (`rebuildOnImageChange`). */
const rebuilds = (news: Values): boolean => news.rebuildOnImageChange === true;
/** The password and keys go with a rebuild: they change in place when the image does. */
const rebuildsWith = (news: Values, olds: Values): boolean => rebuilds(news) && news.image !== undefined && news.image !== olds.image;

/** What the update of a running instance's interfaces does beside them, said at preview and at up. */
export const REBOOT_FOR_INTERFACES = "the instance reboots so its new interfaces take effect (a profile's interfaces apply at boot)";

/** The `vpc` interface's address an update of `interfaces` records, when the program names it; `null` without one. */
function previewedVpcAddress(inputs: Values): unknown {
  if (!Array.isArray(inputs.interfaces)) return undefined;
  const vpc = (inputs.interfaces as unknown[]).find((i) => isRecord(i) && i.purpose === "vpc") as Values | undefined;
  if (!vpc) return null;
  const address = isRecord(vpc.ipv4) ? vpc.ipv4.vpc : undefined;
  return typeof address === "string" && address !== "" ? address : undefined;
}

const instances = (ctx: ProviderContext) => ctx.client().computes.instances;

/** The record as the hooks return it: the instance with its first profile's interfaces (see `interfacesOf`) and the VPC address. */
function instanceRecord(compute: Compute, config: Config | undefined, recordedInterfaces: unknown): InstanceRecord {
  const vpc = config?.interfaces.find((i) => i.purpose === "vpc");
  return {
    ...compute,
    interfaces: interfacesOf(config, recordedInterfaces),
    vpc_ipv4: vpc?.ipv4?.vpc ?? null,
    config_id: config?.id,
  };
}

/**
 * The record of an instance a program takes over (`pulumi-compute import`), as the hooks return
 * it: every address its profile's interfaces hold is named, as a program that made it would have
 * named them, so the program's previews of dependents are exact from the start.
 */
export function importedInstanceRecord(compute: Compute, config: Config | undefined): InstanceRecord {
  const named = config?.interfaces.map((i) => ({ ipv4: { vpc: i.ipv4?.vpc ?? undefined, nat11: i.ipv4?.nat_1_1 ?? undefined } }));
  return instanceRecord(compute, config, named);
}

/** The record with its first profile's interfaces and the VPC address; `undefined` when gone. */
async function readFull(ctx: ProviderContext, id: number, recorded: Values, signal: AbortSignal): Promise<InstanceRecord | undefined> {
  let compute: Compute;
  try {
    compute = await instances(ctx).get(id, { signal });
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
  // Deleted (by hand, say) and on its way out: nothing is left to manage, so a refresh drops it and
  // an up makes the program's instance anew, instead of updating one that is gone by then.
  if (compute.status === "deleting") return undefined;
  const [config] = await instances(ctx).configs.listAll(id, { signal });
  return instanceRecord(compute, config, recorded.interfaces);
}

/** Waits until the instance rests in one of `until`, on the resource's row. */
async function waitFor(ctx: ProviderContext, id: number, until: ComputeStatus[], signal: AbortSignal, awaited: string): Promise<Compute> {
  let report: ((status: string, elapsedMs: number) => void) | undefined;
  return instances(ctx).waitForStatus(id, until, {
    timeoutMs: 7 * 24 * 3600 * 1000, // the operation's own deadline (its `timeouts`) aborts first
    // A boot is seen within a second; polls then back off to one each 15 s (as EC2's own waiters
    // poll), so a resize or a provisioning of minutes costs a dozen or two reads of the token's
    // shared rate limit, not one each 5 s (fuzz seed 326: a resize's up made 52 requests).
    intervalMs: 15_000,
    firstIntervalMs: 1_000,
    signal,
    sleep: ctx.time.sleep,
    now: ctx.time.now,
    progress: (c, elapsed) => {
      if (!c) return;
      report ??= waitReporter(
        { what: `instance ${id} (${c.label})`, until: awaited },
        (status) => (until as string[]).includes(status),
        (text, about) => ctx.status(text, about),
      );
      report(c.status, elapsed);
    },
  });
}

/** Waits until the instance is gone (its wait fails with nothing left to read). */
async function gone(ctx: ProviderContext, id: number, signal: AbortSignal): Promise<void> {
  await waitFor(ctx, id, [], signal, "deleted").catch((error: unknown) => {
    if (!(error instanceof WaitError && error.kind === "failed" && error.last === undefined)) throw error;
  });
}

/** For a create refused for its label: the instance that holds it while `deleting`, if that is why. */
async function dyingHolder(ctx: ProviderContext, error: unknown, label: unknown, signal: AbortSignal): Promise<Compute | undefined> {
  if (!(error instanceof ApiError && error.status === 400 && error.fieldErrors().some((e) => e.field === "label"))) return undefined;
  if (typeof label !== "string") return undefined;
  const holders = await instances(ctx).listAll({ filter: { label }, signal });
  return holders.find((i) => i.label === label && i.status === "deleting");
}

/** An action of an update (a resize, a boot), whose answer may be lost: `applied` tells from one read of the instance. */
interface InstanceAction extends Omit<Action, "applied"> {
  applied: (compute: Compute) => boolean;
}

/** Sends an action once (`actExactlyOnce`): after a lost answer, the instance is read to see whether it took it. */
function act(ctx: ProviderContext, id: number, signal: AbortSignal, action: InstanceAction): Promise<void> {
  const applied = async () => action.applied(await instances(ctx).get(id, { signal }));
  return actExactlyOnce(ctx, instanceSpec, id, { ...action, applied });
}

/** The resting status the program asks for: `running`, or `offline` with `booted: false`. */
const wanted = (booted: unknown): ComputeStatus => (booted === false ? "offline" : "running");

/** Preview's checks that read the API: the type, the image, and each `vpc` interface's subnet in the instance's region. */
async function onOffer(call: Call & { inputs: Values; olds: Values }): Promise<Failure[]> {
  const { ctx, inputs, olds, signal } = call;
  const failures = await regionOnOffer(COMPUTE_CAPABILITY)(call);
  const client = ctx.client();
  const exists = (key: string, get: () => Promise<unknown>) =>
    ctx.memo(key, () =>
      get().then(
        () => true,
        (error: unknown) => {
          if (isNotFound(error)) return false;
          throw error;
        },
      ),
    );
  const type = inputs.type;
  if (
    typeof type === "string" &&
    type !== olds.type &&
    !(await exists(`computes.types/${type}`, () => client.computes.types.get(type, { signal })))
  ) {
    failures.push({
      property: "type",
      reason: `type ${type} is not a plan the API offers for instances (such as g6-nanode-1, g6-standard-2 or g6-dedicated-4)`,
    });
  }
  const image = inputs.image;
  if (typeof image === "string" && image !== olds.image && !(await exists(`images/${image}`, () => client.images.get(image, { signal })))) {
    failures.push({ property: "image", reason: `image ${image} is not an image of the account or a public one; getImages lists them` });
  }
  const region = inputs.region;
  const list = Array.isArray(inputs.interfaces) ? (inputs.interfaces as unknown[]) : [];
  const subnets = list.flatMap((i, n) =>
    isRecord(i) && i.purpose === "vpc" && !isUnknown(i.subnetId) && i.subnetId != null ? [[n, normalizeId(i.subnetId)] as const] : [],
  );
  if (subnets.length > 0 && typeof region === "string") {
    const holding = (vpcs: Vpc[], subnetId: unknown) => vpcs.find((v) => v.subnets.some((s) => s.id === subnetId));
    let vpcs = await ctx.memo("vpcs", () => client.vpcs.listAll({ signal }));
    // A subnet the program made after the listing was read (in this process) is read afresh.
    if (subnets.some(([, id]) => !holding(vpcs, id))) vpcs = await client.vpcs.listAll({ signal });
    for (const [n, subnetId] of subnets) {
      const vpc = holding(vpcs, subnetId);
      if (!vpc)
        failures.push({
          property: `interfaces[${n}].subnetId`,
          reason: `subnet ${String(subnetId)} is not a subnet of the account's VPCs; getVpcs lists them`,
        });
      else if (vpc.region !== region) {
        failures.push({
          property: `interfaces[${n}].subnetId`,
          reason: `subnet ${String(subnetId)} is in VPC ${vpc.label} of region ${vpc.region}, not the instance's region ${region}: ${COMPUTE_REASONS.subnetRegion}`,
        });
      }
    }
  }
  return failures;
}

export const instanceSpec = resourceSpec<InstanceRecord, ComputeCreateRequest, ComputeUpdateRequest>()({
  name: "Instance",
  noun: "instance",
  description: "A compute instance: a virtual machine deployed from an image, with its network interfaces.",
  example: [
    'const vpc = new compute.Vpc("app", { label: "app-net", region: "us-iad" });',
    'const web = new compute.VpcSubnet("web", { vpcId: vpc.id, label: "web", ipv4: "10.0.1.0/24" });',
    "// The root password from the stack's secret config in a real program; written here so the example runs as is.",
    'const app = new compute.Instance("app-1", {',
    '  label: "app-1",',
    '  region: "us-iad",',
    '  type: "g6-nanode-1",',
    '  image: "public/debian12",',
    '  rootPass: "an-example-root-password",',
    '  interfaces: [{ purpose: "public" }, { purpose: "vpc", subnetId: web.id }],',
    "});",
    "export const appAddress = app.vpcIpv4;",
  ].join("\n"),
  inputs: {
    label: {
      schema: fields.label.unwrap(),
      required: true,
      description: "3–64 letters, digits, `-`, `_` and `.`; unique among the account's instances. Changes in place.",
    },
    region: {
      schema: fields.region,
      required: true,
      replaceOnChange: true,
      description:
        'Region id, such as `us-iad` (one offering Computes: `getRegions({ capability: "Computes" })`). Changing it replaces the instance.',
    },
    type: {
      schema: fields.type,
      required: true,
      send: "create",
      description:
        "Plan, such as `g6-nanode-1` (`GET /compute/types` lists them). A change resizes the instance in place and waits for it; a running instance comes back up.",
    },
    image: {
      schema: z.string().min(1),
      required: true,
      send: "create",
      replaceOnChange: true,
      inPlaceWhen: rebuilds,
      description:
        "Image to deploy, such as `public/debian12` or a private image's id (`getImages` lists them). Changing it replaces the instance, or rebuilds it in place with `rebuildOnImageChange`.",
    },
    rebuildOnImageChange: {
      schema: z.boolean(),
      default: false,
      send: "never",
      description:
        "A change of `image` rebuilds the instance in place (its disks erased and deployed from the new image with `rootPass` and `authorizedKeys`, its id, addresses and interfaces kept) instead of replacing it. The preview says the rebuild.",
    },
    rootPass: {
      schema: fields.root_pass.unwrap(),
      secret: true,
      send: "create",
      replaceOnChange: true,
      inPlaceWhen: rebuildsWith,
      description:
        "Root password, 7–128 characters (secret: encrypted in state, never printed). Required whenever an up deploys the image: a new instance, a replacement, a rebuild. An instance the program adopts (`adoptId`, `pulumi-compute import`) goes without it, since the API never reads it back. Changing it replaces the instance (or goes with a rebuild when `image` changes with `rebuildOnImageChange`).",
    },
    authorizedKeys: {
      schema: fields.authorized_keys.unwrap().unwrap(),
      set: true,
      send: "create",
      replaceOnChange: true,
      inPlaceWhen: rebuildsWith,
      description:
        "SSH public keys installed for root at deployment. Changing them replaces the instance (or goes with a rebuild when `image` changes with `rebuildOnImageChange`).",
    },
    booted: {
      schema: fields.booted.unwrap(),
      default: true,
      send: "create",
      description: "Whether the instance runs: `false` keeps it (or shuts it) offline. A change boots or shuts it down in place.",
    },
    privateIp: {
      schema: fields.private_ip.unwrap(),
      default: false,
      send: "create",
      replaceOnChange: true,
      description: "Give the instance a private IPv4 address (192.168.128.0/17). Changing it replaces the instance.",
    },
    tags: { schema: fields.tags.unwrap(), set: true, default: [], description: "Tags (a set). Change in place." },
    firewallId: {
      ...idField("firewallId"),
      send: "create",
      replaceOnChange: true,
      description:
        "A firewall to assign at creation. Changing it replaces the instance; to change an instance's firewalls in place, use `FirewallDevice`.",
    },
    interfaces: {
      schema: z.array(InterfaceInput).max(3),
      send: "create",
      normalize: canonicalInterfaces,
      toWire: wireInterfaces,
      description:
        'The configuration profile\'s interfaces, in order (`eth0`–`eth2`): `{purpose: "public"}`, `{purpose: "vlan", label, ipamAddress?}`, `{purpose: "vpc", subnetId, ipv4?: {vpc, nat11}, ipRanges?}` (`nat11`: the API\'s `nat_1_1`, `any` or one of the instance\'s public addresses, a 1:1 NAT to the VPC address). A change replaces the profile\'s interfaces in place; a running instance is rebooted so they take effect (the preview says so on the instance\'s row). When absent, the API gives one `public` interface and the list is left alone.',
    },
  },
  outputs: {
    status: {
      description: "`running`, `offline`, or a transition (`provisioning`, `booting`, `resizing`, …).",
      recomputedBy: ["booted"],
    },
    ipv4: { description: "The instance's IPv4 addresses: public first, then the private one when `privateIp`." },
    ipv6: { description: "The SLAAC IPv6 address with its prefix length.", nullWhen: "Null when the API gives none." },
    specs: {
      description: "`{disk, memory, vcpus, transfer, gpus, acceleratedDevices}` of its type (MB, MB, count, GB).",
      recomputedBy: ["type"],
    },
    vpcIpv4: {
      wire: "vpc_ipv4",
      description: "The IPv4 address of the `vpc` interface in its subnet, for a database allow list or a private DNS record.",
      recomputedBy: ["interfaces"],
      // Exact at preview when the program names it (`ipv4.vpc`), or when no `vpc` interface is left.
      previewed: previewedVpcAddress,
      nullWhen: "Null when the instance has no `vpc` interface.",
    },
    created: timestamps("instance").created,
    // Stamped by every change the instance itself takes: the PUT, a resize, a boot, a shutdown, a reboot.
    updated: { ...timestamps("instance").updated, recomputedBy: ["label", "tags", "type", "booted", "interfaces", "image"] },
  },
  computed: {
    rootPass: given("rootPass"),
    authorizedKeys: given("authorizedKeys"),
    privateIp: (record: InstanceRecord, values: Values) =>
      record.ipv4.some((a) => a.startsWith("192.168.")) ? true : (values.privateIp ?? false),
    firewallId: given("firewallId"),
    rebuildOnImageChange: (_record: InstanceRecord, values: Values) => values.rebuildOnImageChange ?? false,
    booted: (record: InstanceRecord, values: Values) =>
      record.status === "running" ? true : record.status === "offline" ? false : (values.booted ?? UP.includes(record.status)),
  },
  updateEffects: (olds, news, changed) => {
    const running = olds.status === "running" && news.booted !== false;
    const effects: string[] = [];
    if (changed.includes("image"))
      effects.push(`the instance is rebuilt from ${String(news.image)}: its disks are erased and deployed again, and it boots from them`);
    if (!running) return effects;
    if (changed.includes("type")) effects.push("the resize takes the instance offline while it moves to the new plan, then boots it again");
    if (changed.includes("interfaces") && news.interfaces !== undefined) effects.push(REBOOT_FOR_INTERFACES);
    return effects;
  },
  timeouts: { create: 15 * MINUTE, update: 20 * MINUTE, delete: 10 * MINUTE },
  endpoints: {
    read: [
      "regions.list",
      "vpcs.list",
      "images.get",
      "computes.types.get",
      "computes.instances.list",
      "computes.instances.get",
      "computes.instances.configs.list",
    ],
    write: [
      "computes.instances.create",
      "computes.instances.update",
      "computes.instances.delete",
      "computes.instances.boot",
      "computes.instances.shutdown",
      "computes.instances.reboot",
      "computes.instances.resize",
      "computes.instances.rebuild",
      "computes.instances.configs.update",
    ],
  },
  uniqueInputs: ["label"],
  // The API never answers them: recorded only as the program gave them.
  unrecorded: (args) => ["authorizedKeys", "firewallId"].filter((key) => args[key] === undefined),
  // The password goes only with a deployment: an adopted instance's program has none, without a diff.
  validate: (inputs, olds) =>
    inputs.rootPass === undefined && deploys(inputs, olds) ? [{ property: "rootPass", reason: ROOT_PASS_TO_DEPLOY }] : [],
  // The sdk's rules of a profile's interfaces, on the program's list (camelCase inside): named back in its words.
  wireRules: (wire) =>
    Array.isArray(wire.interfaces)
      ? configInterfaceErrors(wireInterfaces(wire.interfaces) as never).map((e) => ({
          field: e.field && camelText(e.field),
          reason: camelText(e.reason),
        }))
      : [],
  checkShared: onOffer,
  // Labels are unique among the account's instances.
  // An instance that is `deleting` is no longer the label's holder: its label frees when it is gone.
  naturalKey: uniqueLabel(async (ctx, filter, signal) =>
    (await instances(ctx).listAll({ filter, signal })).filter((i) => i.status !== "deleting"),
  ),
  hooks: {
    create: async ({ ctx, body, signal }) => {
      try {
        return await instances(ctx).create(body, { signal });
      } catch (error) {
        // The label still held by an instance deleted outside the stack, on its way out: it frees
        // within seconds, so the create waits for that one to go and is sent again (a 400 is a
        // refusal: nothing was made).
        const dying = await dyingHolder(ctx, error, body.label, signal);
        if (dying === undefined) throw error;
        ctx.status(`waiting for instance ${dying.id} (${dying.label}), deleted outside this stack, to go: its label is then free`);
        await gone(ctx, dying.id, signal);
        return instances(ctx).create(body, { signal });
      }
    },
    read: ({ ctx, id, state, signal }) => readFull(ctx, apiId(id), state, signal),
    settle: async ({ ctx, record, inputs, signal }) => {
      const target = wanted(inputs.booted);
      await waitFor(ctx, record.id, [target], signal, target);
      return (await readFull(ctx, record.id, inputs as Values, signal))!;
    },
    update: async ({ ctx, id, body, news, changed, signal }) => {
      const computeId = apiId(id);
      if (Object.keys(body).length > 0) await instances(ctx).update(computeId, body, { signal });
      const target = wanted(news.booted);
      const before = await instances(ctx).get(computeId, { signal });
      // The instance as last read: its status, and the `updated` stamp a reboot moves.
      let latest = before;
      // An action an earlier run sent and lost the answer of may be applied already, or under way:
      // it is waited for, not sent twice (and each action here is sent with `act`, which reads after a lost answer).
      if (changed.includes("image")) {
        // Only with `rebuildOnImageChange` (else the diff replaces): the new image with the program's password and keys.
        const rebuild = {
          image: String(news.image),
          root_pass: String(news.rootPass),
          ...(Array.isArray(news.authorizedKeys) && { authorized_keys: news.authorizedKeys as string[] }),
          booted: target === "running",
        };
        const rebuilt = (c: Compute) => c.status === "rebuilding" || c.image === rebuild.image;
        if (!rebuilt(before)) {
          await act(ctx, computeId, signal, {
            field: "image",
            what: `the rebuild from ${rebuild.image}`,
            send: () => instances(ctx).rebuild(computeId, rebuild, { signal }),
            applied: rebuilt,
          });
        }
        latest = await waitFor(ctx, computeId, [target], signal, `${target} after the rebuild`);
      }
      if (changed.includes("type")) {
        const type = String(news.type);
        const resized = (c: Compute) => c.status === "resizing" || c.type === type;
        if (!resized(before)) {
          await act(ctx, computeId, signal, {
            field: "type",
            what: `the resize to ${type}`,
            send: () => instances(ctx).resize(computeId, { type }, { signal }),
            applied: resized,
          });
        }
        latest = await waitFor(ctx, computeId, ["running", "offline"], signal, "the resize");
      }
      if (changed.includes("interfaces") && news.interfaces !== undefined) {
        const [config] = await instances(ctx).configs.listAll(computeId, { signal });
        if (!config) throw new Error(`instance ${computeId} has no configuration profile to set the interfaces of`);
        const wire = wireInterfaces(news.interfaces) as ConfigInterfaceRequest[];
        await instances(ctx).configs.update(computeId, config.id, { interfaces: wire }, { signal });
        // The profile's interfaces change on the next boot: a running instance reboots now.
        if (latest.status === "running" && target === "running") {
          ctx.status(`rebooting instance ${computeId}: ${REBOOT_FOR_INTERFACES}`);
          const since = latest.updated;
          await act(ctx, computeId, signal, {
            field: "interfaces",
            what: "the reboot that applies the new interfaces",
            send: () => instances(ctx).reboot(computeId, {}, { signal }),
            // Back up already: its `updated` stamp moved (a profile's update does not stamp the instance).
            applied: (c) => c.status === "rebooting" || c.status === "booting" || c.updated !== since,
          });
          latest = await waitFor(ctx, computeId, ["running"], signal, "running after the reboot");
        }
      }
      if (latest.status !== target) {
        const boot = target === "running";
        const moving = (c: Compute) => (boot ? ["booting", "running"] : ["shutting_down", "offline"]).includes(c.status);
        if (!moving(latest)) {
          await act(ctx, computeId, signal, {
            field: "booted",
            what: boot ? "the boot" : "the shutdown",
            send: () => (boot ? instances(ctx).boot(computeId, {}, { signal }) : instances(ctx).shutdown(computeId, { signal })),
            applied: moving,
          });
        }
        await waitFor(ctx, computeId, [target], signal, target);
      }
      return (await readFull(ctx, computeId, news as Values, signal))!;
    },
    // Waits until it is gone: its subnet, firewall or VPC can only go after it.
    delete: async ({ ctx, id, signal }) => {
      const computeId = apiId(id);
      await instances(ctx).delete(computeId, { signal });
      await gone(ctx, computeId, signal);
    },
  },
});
