/**
 * The instance status machine as clock work (`DueSource`): each pending step of each instance is
 * applied at exactly its `at` (lazily before each request and on the clock's timer). Reaching
 * `running` brings the booted profile's interfaces up (the others down); `offline` takes them all
 * down; `gone` removes the instance. The action's event finishes with its last step.
 */
import type { DueSource } from "../../core/clock";
import type { EmulatorRuntime } from "../../core/runtime";
import type { AccountState } from "../../core/state";
import { closeEvents } from "../events/operations";
import { removeCompute } from "./operations";
import { COMPUTES, type ComputeStep, type StoredCompute } from "./store";

function applyStep(account: AccountState, compute: StoredCompute, step: ComputeStep, atMs: number): void {
  compute.steps = (compute.steps ?? []).slice(1);
  if (step.to === "gone") {
    removeCompute(account, compute);
  } else {
    compute.status = step.to;
    const up = step.to === "running";
    for (const config of compute.configs) {
      const live = up && config.id === compute.booted_config_id;
      if (up || step.to === "offline") for (const iface of config.interfaces) iface.active = live;
    }
  }
  if (compute.steps.length === 0 && compute.event_id != null) {
    closeEvents(account, [compute.event_id], "finished", atMs);
    compute.event_id = null;
  }
}

function pending(runtime: EmulatorRuntime): Array<{ account: AccountState; compute: StoredCompute; step: ComputeStep }> {
  const out: Array<{ account: AccountState; compute: StoredCompute; step: ComputeStep }> = [];
  for (const account of Object.values(runtime.state.accounts)) {
    for (const compute of COMPUTES.of(account)) {
      const step = compute.steps?.[0];
      if (step) out.push({ account, compute, step });
    }
  }
  return out;
}

/** The instances' status machines as clock work. */
export function computeTransitions(runtime: EmulatorRuntime): DueSource {
  return {
    nextDueMs: () => {
      let next: number | undefined;
      for (const { step } of pending(runtime)) if (next === undefined || step.at < next) next = step.at;
      return next;
    },
    runDue: (dueMs) => {
      for (const { account, compute, step } of pending(runtime)) if (step.at <= dueMs) applyStep(account, compute, step, step.at);
    },
  };
}
