/**
 * Optional state file: loaded at start, written after every mutating request. Writes are atomic
 * (temp file in the same folder, then rename) so a crash mid-write never leaves half a file.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync, rmSync } from "node:fs";
import { dirname, join, basename } from "node:path";
import { randomBytes } from "node:crypto";
import { type EmulatorState, type StateLayout, normalizeState } from "./state";

/** The state a file holds, brought to today's `layout` (older files load: `normalizeState`); undefined for no file. */
export function loadState(file: string, layout: StateLayout): EmulatorState | undefined {
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, "utf8");
  if (text.trim() === "") return undefined;
  const raw = JSON.parse(text) as EmulatorState;
  if (raw.version !== 1) throw new Error(`${file}: unsupported emulator state version ${String(raw.version)}`);
  return normalizeState(layout, raw);
}

export function saveState(file: string, state: EmulatorState): void {
  const folder = dirname(file);
  mkdirSync(folder, { recursive: true });
  const temp = join(folder, `.${basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    writeFileSync(temp, JSON.stringify(state, null, 2));
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
