/**
 * An instance's resize whose answer is lost, through the real engine with the TypeScript classes
 * (the emulator's clock jumped by the provider's waits, so each round's requests are the same
 * every run). Found by fuzz seed 325 (classes, at step 33 of 50): under the model's faults the
 * resize's POST met a connection reset, which the sdk rightly does not repeat (it may have been
 * applied), and `up --refresh` failed with the request's REST path. Shrunk by hand to its steps:
 * an instance, an up, its type changed, an `up --refresh` whose resize loses its answer — after
 * the emulator applied it (`reset-after`: not sent again) and before (`reset`: sent once more);
 * and every send lost, which fails naming the resource and the field, and the next up finishes.
 */
import type { FaultKind } from "../../emulator/core/faults";
import { Instance } from "../../provider";
import { MAX_CREATE_ATTEMPTS } from "../../provider/engine/natural-key";
import { useEmulatedAccount } from "../support/account";
import type { TestStack } from "../support/engine";

jest.setTimeout(300_000);

const account = useEmulatedAccount();
let testStack: TestStack;
/** The program's instance type, changed round by round. */
let type = "g6-nanode-1";

beforeAll(async () => {
  testStack = await account.stack({
    name: "instance-lost-answer",
    program: async () => {
      new Instance("vm1", { label: "fz-in-1", region: "us-ord", type, image: "public/ubuntu22.04", rootPass: "a-fuzz-root-password" });
    },
  });
});

const RESIZE = "^/v4/compute/instances/\\d+/resize$";

/** An `up --refresh` to `next` with the resize's answer lost `count` times (by `kind`): its requests, as `METHOD path`. */
async function resizeRound(next: string, fault?: { kind: FaultKind; count?: number }): Promise<{ requests: string[]; error?: Error }> {
  type = next;
  account.emulator.control.clearFaults();
  if (fault) account.emulator.control.addFault({ pathPattern: RESIZE, method: "POST", kind: fault.kind, count: fault.count ?? 1 });
  const mark = account.emulator.control.listRequests().length;
  let error: Error | undefined;
  try {
    expect((await testStack.stack.up({ refresh: true })).summary.resourceChanges).toMatchObject({ update: 1 });
  } catch (e) {
    error = e as Error;
  } finally {
    account.emulator.control.clearFaults();
  }
  const requests = account.emulator.control
    .listRequests()
    .slice(mark)
    .map((r) => `${r.method} ${r.path.replace(/\d+/g, "N")}`);
  return { requests, error };
}

const resizes = (requests: string[]) => requests.filter((r) => r === "POST /vN/compute/instances/N/resize").length;
const gets = (requests: string[]) => requests.filter((r) => r === "GET /vN/compute/instances/N").length;

test("seed 325: a resize whose answer is lost is read: applied, it is waited for; not applied, it is sent once more; lost every time, the error names the resource and the field", async () => {
  expect((await testStack.stack.up()).summary.result).toBe("succeeded");
  const [vm] = await account.client.computes.instances.listAll();
  expect(vm).toMatchObject({ label: "fz-in-1", type: "g6-nanode-1", status: "running" });

  // The normal path: one resize, and no read beyond the wait's.
  const normal = await resizeRound("g6-standard-1");
  expect(normal.error).toBeUndefined();
  expect(resizes(normal.requests)).toBe(1);
  expect(await account.client.computes.instances.get(vm!.id)).toMatchObject({ type: "g6-standard-1", status: "running" });

  // Lost after the emulator applied it: the instance is read once (it shows `resizing`), the
  // resize is not sent again, and the up waits and succeeds. Before the fix: the up failed.
  const applied = await resizeRound("g6-standard-2", { kind: "reset-after" });
  expect(applied.error).toBeUndefined();
  expect(resizes(applied.requests)).toBe(1);
  expect(applied.requests.length).toBe(normal.requests.length + 1);
  expect(gets(applied.requests)).toBe(gets(normal.requests) + 1);
  expect(await account.client.computes.instances.get(vm!.id)).toMatchObject({ type: "g6-standard-2", status: "running" });

  // Lost before it was applied: the read shows the old type, and the resize is sent once more.
  const notApplied = await resizeRound("g6-standard-1", { kind: "reset" });
  expect(notApplied.error).toBeUndefined();
  expect(resizes(notApplied.requests)).toBe(2);
  expect(notApplied.requests.length).toBe(normal.requests.length + 2);
  expect(await account.client.computes.instances.get(vm!.id)).toMatchObject({ type: "g6-standard-1", status: "running" });

  // Every send lost before it was applied: the up fails in the program's terms, with what to do.
  const lost = await resizeRound("g6-standard-2", { kind: "reset", count: MAX_CREATE_ATTEMPTS });
  expect(resizes(lost.requests)).toBe(MAX_CREATE_ATTEMPTS);
  const message = String(lost.error?.message);
  expect(message).toContain(`Instance "vm1": the resize to g6-standard-2 (its type) got no answer ${MAX_CREATE_ATTEMPTS} times`);
  expect(message).toContain("run `pulumi up` again");
  expect(message).not.toContain("/compute/instances");
  expect((await account.client.computes.instances.get(vm!.id)).type).toBe("g6-standard-1");

  // As it says: the next up reads the instance and resizes it once.
  const again = await resizeRound("g6-standard-2");
  expect(again.error).toBeUndefined();
  expect(resizes(again.requests)).toBe(1);
  expect(await account.client.computes.instances.get(vm!.id)).toMatchObject({ type: "g6-standard-2", status: "running" });
});
