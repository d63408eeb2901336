/**
 * The image status machine as clock work (`DueSource`): every pending `{to, at}` of every account
 * is applied at exactly `at` — lazily before each request and on the clock's timer.
 */
import type { DueSource } from "../../core/clock";
import type { EmulatorRuntime } from "../../core/runtime";
import { type AccountState, removeStored } from "../../core/state";
import { closeEvents } from "../events/operations";
import { IMAGES, type ImageTransition, type StoredImage } from "./store";

/** Finishes (or fails) the job event of an image. */
function endJob(account: AccountState, image: StoredImage, status: "finished" | "failed", atMs: number, message?: string): void {
  if (image.event_id !== null) closeEvents(account, [image.event_id], status, atMs, message);
}

/** Applies one due transition (the clock's now is its `at`). */
function applyTransition(runtime: EmulatorRuntime, account: AccountState, image: StoredImage, transition: ImageTransition): void {
  image.transition = null;
  if (transition.to === "available") {
    image.status = "available";
    image.updated = runtime.clock.timestamp();
    endJob(account, image, "finished", transition.at);
    return;
  }
  // No data within the upload window: the upload is canceled and the image deleted.
  removeStored(IMAGES, account, image);
  endJob(account, image, "failed", transition.at, "No image data was uploaded within 24 hours; the image was deleted.");
}

function pending(runtime: EmulatorRuntime): Array<{ account: AccountState; image: StoredImage; transition: ImageTransition }> {
  const out: Array<{ account: AccountState; image: StoredImage; transition: ImageTransition }> = [];
  for (const account of Object.values(runtime.state.accounts)) {
    for (const image of IMAGES.of(account)) if (image.transition) out.push({ account, image, transition: image.transition });
  }
  return out;
}

/** The image status machines as clock work: every pending `{to, at}` of every account. */
export function imageTransitions(runtime: EmulatorRuntime): DueSource {
  return {
    nextDueMs: () => {
      let next: number | undefined;
      for (const { transition } of pending(runtime)) if (next === undefined || transition.at < next) next = transition.at;
      return next;
    },
    runDue: (dueMs) => {
      for (const { account, image, transition } of pending(runtime)) {
        if (transition.at <= dueMs) applyTransition(runtime, account, image, transition);
      }
    },
  };
}
