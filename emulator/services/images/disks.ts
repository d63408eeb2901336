/**
 * Disks of seeded compute instances. The API's disk endpoints are not emulated; images need disks
 * to capture (`POST /images` takes a `disk_id`), so the seed gives every instance its disks: the
 * ones it names, or one boot disk by default.
 */
import type { EmulatorRuntime } from "../../core/runtime";
import type { EmulatorState } from "../../core/state";
import { ApiFailure, entry } from "../../core/errors";

export interface DiskRecord {
  id: number;
  label: string;
  /** MB; a captured image has the disk's size. */
  size: number;
  filesystem: "raw" | "swap" | "ext3" | "ext4" | "initrd";
  created: string;
}

/** Seed input of one disk (validated by the control API's schema). */
export interface DiskSeed {
  id?: number;
  label?: string;
  size?: number;
  filesystem?: DiskRecord["filesystem"];
}

/** What an instance seeded without `disks` gets: one boot disk the size of the recorded capture. */
export const DEFAULT_DISK: Required<Omit<DiskSeed, "id">> = { label: "Boot Disk", size: 25088, filesystem: "ext4" };

function diskIdTaken(state: EmulatorState, id: number, also: readonly DiskRecord[]): boolean {
  if (also.some((d) => d.id === id)) return true;
  return Object.values(state.accounts).some((a) => a.computes.some((c) => (c.disks ?? []).some((d) => d.id === id)));
}

/** The disks of a new seeded instance; a taken id is a 400 naming `disks[i].id`. */
export function seedDisks(runtime: EmulatorRuntime, seeds: readonly DiskSeed[] | undefined): DiskRecord[] {
  const disks: DiskRecord[] = [];
  const wanted: readonly DiskSeed[] = seeds ?? [DEFAULT_DISK];
  wanted.forEach((seed, i) => {
    if (seed.id !== undefined && diskIdTaken(runtime.state, seed.id, disks)) {
      throw new ApiFailure(400, [entry(`Disk ${seed.id} already exists`, `disks[${i}].id`)]);
    }
    let id = seed.id;
    while (id === undefined || (seed.id === undefined && diskIdTaken(runtime.state, id, disks))) id = runtime.nextId("disk");
    disks.push({
      id,
      label: seed.label ?? DEFAULT_DISK.label,
      size: seed.size ?? DEFAULT_DISK.size,
      filesystem: seed.filesystem ?? DEFAULT_DISK.filesystem,
      created: runtime.clock.timestamp(),
    });
  });
  return disks;
}
