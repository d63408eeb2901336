/**
 * The compute types of the catalogue (`GET /compute/types`) and the status machine's durations.
 * The types are the public list's shared and dedicated plans of the era of the recordings (linodego
 * `LinodeType`'s fields; ids, sizes and list prices as the public plan list states them, hourly =
 * monthly × 0.0015, as the list's hourly prices are): docs/api-facts-computes.md, "Types".
 */
import type { ComputeType } from "../../../sdk/resources/computes";

interface Plan {
  id: string;
  label: string;
  class: "nanode" | "standard" | "dedicated" | "highmem";
  memory: number;
  vcpus: number;
  disk: number;
  transfer: number;
  network_out: number;
  monthly: number;
  backups: number;
}

const PLANS: readonly Plan[] = [
  {
    id: "g6-nanode-1",
    label: "Nanode 1GB",
    class: "nanode",
    memory: 1024,
    vcpus: 1,
    disk: 25600,
    transfer: 1000,
    network_out: 1000,
    monthly: 5,
    backups: 2,
  },
  {
    id: "g6-standard-1",
    label: "Compute 2GB",
    class: "standard",
    memory: 2048,
    vcpus: 1,
    disk: 51200,
    transfer: 2000,
    network_out: 2000,
    monthly: 12,
    backups: 2.5,
  },
  {
    id: "g6-standard-2",
    label: "Compute 4GB",
    class: "standard",
    memory: 4096,
    vcpus: 2,
    disk: 81920,
    transfer: 4000,
    network_out: 4000,
    monthly: 24,
    backups: 5,
  },
  {
    id: "g6-standard-4",
    label: "Compute 8GB",
    class: "standard",
    memory: 8192,
    vcpus: 4,
    disk: 163840,
    transfer: 5000,
    network_out: 5000,
    monthly: 48,
    backups: 10,
  },
  {
    id: "g6-standard-6",
    label: "Compute 16GB",
    class: "standard",
    memory: 16384,
    vcpus: 6,
    disk: 327680,
    transfer: 8000,
    network_out: 6000,
    monthly: 96,
    backups: 20,
  },
  {
    id: "g6-dedicated-2",
    label: "Dedicated 4GB",
    class: "dedicated",
    memory: 4096,
    vcpus: 2,
    disk: 81920,
    transfer: 4000,
    network_out: 4000,
    monthly: 36,
    backups: 5,
  },
  {
    id: "g6-dedicated-4",
    label: "Dedicated 8GB",
    class: "dedicated",
    memory: 8192,
    vcpus: 4,
    disk: 163840,
    transfer: 5000,
    network_out: 5000,
    monthly: 72,
    backups: 10,
  },
  {
    id: "g7-highmem-1",
    label: "Compute 24GB",
    class: "highmem",
    memory: 24576,
    vcpus: 2,
    disk: 20480,
    transfer: 5000,
    network_out: 5000,
    monthly: 60,
    backups: 5,
  },
];

const price = (monthly: number) => ({ hourly: Math.round(monthly * 15) / 10_000, monthly });

export const COMPUTE_TYPES: readonly ComputeType[] = PLANS.map((p) => ({
  id: p.id,
  label: p.label,
  class: p.class,
  disk: p.disk,
  memory: p.memory,
  vcpus: p.vcpus,
  gpus: 0,
  accelerated_devices: 0,
  network_out: p.network_out,
  transfer: p.transfer,
  price: price(p.monthly),
  region_prices: [],
  addons: { backups: { price: price(p.backups), region_prices: [] } },
  successor: null,
}));

export function findComputeType(id: string): ComputeType | undefined {
  return COMPUTE_TYPES.find((t) => t.id === id);
}

/** The type a seeded instance (which names none) renders as. */
export const SEEDED_TYPE = "g6-standard-1";

/** The capability a region lists when instances can be made in it. */
export const COMPUTE_CAPABILITY = "Computes";

/** The swap disk a deployed image gets beside its root disk, MB (linodego `swap_size`'s default). */
export const DEFAULT_SWAP_MB = 512;

/** How long each step of the status machine takes, emulated ms (docs/api-facts-computes.md, "Status machine"). */
export const STEP_MS = {
  provisioning: 60_000,
  booting: 20_000,
  shutting_down: 20_000,
  rebooting: 30_000,
  resizing: 180_000,
  rebuilding: 60_000,
  deleting: 10_000,
} as const;
