/**
 * The engine's create-exactly-once rules on a scripted object store (no HTTP: the decisions, one
 * per outcome of the create and of the lookups). The resources' own lookups run against the
 * emulator in `test/provider/resources/*` and through the real engine in `test/e2e/faults`.
 */
import { ApiError, ConnectionError } from "../../../sdk/core/errors";
import {
  MAX_CREATE_ATTEMPTS,
  UnresolvedCreateError,
  createExactlyOnce,
  isAmbiguous,
  postExactlyOnce,
  resolvePendingCreate,
} from "../../../provider/engine/natural-key";
import type { AnySpec, ApiObject } from "../../../provider/engine/spec";
import type { ProviderContext } from "../../../provider/engine/context";
import { REAL_TIME } from "../../../provider/engine/time";

const POST = { method: "POST", path: "/things" };
const reset = () => new ConnectionError(POST, "ECONNRESET", true);
const serverError = () => ApiError.from(500, [{ reason: "Internal server error" }], POST);

/** A store of objects, a spec whose lookup lists them, and the progress lines. */
function world(options: { exclusive?: boolean; adoptable?: (o: ApiObject) => boolean } = {}) {
  const objects: ApiObject[] = [];
  const lines: string[] = [];
  const deleted: string[] = [];
  let lookupFailures: unknown[] = [];
  const spec = {
    noun: "thing",
    naturalKey: {
      describe: () => 'label "x"',
      exclusive: options.exclusive ?? true,
      adoptable: options.adoptable,
      find: async () => {
        const failure = lookupFailures.shift();
        if (failure) throw failure;
        return objects.filter((o) => o.label === "x");
      },
    },
    hooks: {
      delete: async ({ id }: { id: string }) => {
        deleted.push(id);
        objects.splice(
          objects.findIndex((o) => String(o.id) === id),
          1,
        );
      },
    },
  } as unknown as AnySpec;
  const kept = new Map<string, unknown>();
  const shared = (key: string, make: () => unknown) => (kept.has(key) ? kept.get(key) : kept.set(key, make()).get(key));
  const ctx = { progress: (line: string) => lines.push(line), time: REAL_TIME, shared } as unknown as ProviderContext;
  let nextId = 1;
  const make = (status = "ok") => {
    const object = { id: nextId++, label: "x", status };
    objects.push(object);
    return object;
  };
  return {
    objects,
    lines,
    deleted,
    failLookups: (...failures: unknown[]) => (lookupFailures = failures),
    run: (post: () => Promise<ApiObject>, signal = new AbortController().signal, equalsInputs?: (o: ApiObject) => boolean) =>
      createExactlyOnce(spec, ctx, {}, signal, post, equalsInputs),
    /** `pulumi-compute recover`'s decision on a pending create of this spec. */
    pending: (managed: string[] = [], inputs: Record<string, unknown> = {}) =>
      resolvePendingCreate(spec, ctx, inputs, new Set(managed), AbortSignal.timeout(300)),
    spec,
    ctx,
    make,
  };
}

test("what is ambiguous: sent and unanswered, or a server-side failure", () => {
  expect(isAmbiguous(reset())).toBe(true);
  expect(isAmbiguous(new ConnectionError(POST, "ECONNREFUSED", false))).toBe(false);
  expect(isAmbiguous(serverError())).toBe(true);
  expect(isAmbiguous(ApiError.from(502, [{ reason: "Bad Gateway" }], POST))).toBe(true);
  expect(isAmbiguous(ApiError.from(503, [{ reason: "later" }], POST))).toBe(false);
  expect(isAmbiguous(ApiError.from(400, [{ reason: "bad" }], POST))).toBe(false);
});

test("a create that landed before its connection reset is adopted, not sent again", async () => {
  const w = world();
  let posts = 0;
  const result = await w.run(async () => {
    posts++;
    w.make();
    throw reset();
  });
  expect(result).toMatchObject({ id: 1 });
  expect(posts).toBe(1);
  expect(w.objects).toHaveLength(1);
  expect(w.lines[0]).toMatch(/^thing 1: the create request failed \(connection failed \(ECONNRESET\)\) but had created it; adopted$/);
});

test("a create that did not land (500 before processing) is sent again, once", async () => {
  const w = world();
  let posts = 0;
  const result = await w.run(async () => {
    posts++;
    if (posts === 1) throw serverError();
    return w.make();
  });
  expect(result).toMatchObject({ id: 1 });
  expect(posts).toBe(2);
  expect(w.lines[0]).toMatch(/no new thing with label "x" exists: it did not land; sending it again/);
});

test("a lookup that fails after the ambiguous create is retried until it answers", async () => {
  const w = world();
  w.failLookups(undefined, serverError(), reset());
  const result = await w.run(async () => {
    w.make();
    throw reset();
  });
  expect(result).toMatchObject({ id: 1 });
  expect(w.objects).toHaveLength(1);
});

test("a lookup that keeps failing until the deadline: the error says the outcome is unknown and what to do", async () => {
  const w = world();
  const failures = Array.from({ length: 100 }, () => serverError());
  w.failLookups(undefined, ...failures);
  const error = await w
    .run(async () => {
      w.make();
      throw reset();
    }, AbortSignal.timeout(300))
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(UnresolvedCreateError);
  expect((error as Error).message).toMatch(
    /^the thing create request failed \(connection failed \(ECONNRESET\)\) and looking for a thing with label "x" failed until the deadline \(HTTP 500: Internal server error\): whether it was created is unknown\. Run `pulumi up` again: the thing is looked up before it is created, and if it exists the error names it and the adoptId to set\.$/,
  );
});

test("an exclusive key already taken fails before any create, naming the object and the adoptId", async () => {
  const w = world();
  w.make();
  let posts = 0;
  const error = await w.run(async () => ({ id: posts++ })).catch((e: unknown) => e);
  expect(posts).toBe(0);
  expect((error as Error).message).toBe(
    'a thing with label "x" already exists (id 1). If it is the one this resource should manage (a run that lost the ' +
      "create's answer may have made it), set adoptId: 1 on the resource and run `pulumi up` again; otherwise change the key or delete that thing. " +
      "If this stack manages it under another name, use aliases instead; if another stack manages it, never adoptId " +
      "(node_modules/pulumi-compute/docs/guides/refactoring.md).",
  );
});

test("a repeating key: only an object that appeared during the create counts", async () => {
  const w = world({ exclusive: false });
  w.make(); // someone else's, from before
  const result = await w.run(async () => {
    w.make();
    throw reset();
  });
  expect(result).toMatchObject({ id: 2 });
});

test("two new objects cannot be told apart: the error names both and the adoptId to set", async () => {
  const w = world({ exclusive: false });
  const error = await w
    .run(async () => {
      w.make();
      w.make();
      throw reset();
    })
    .catch((e: unknown) => e);
  expect((error as Error).message).toMatch(
    /2 new objects \(thing with label "x"\) appeared meanwhile: ids 1, 2; .*adoptId: 1\), delete the others/,
  );
});

test("a new object that cannot be adopted is deleted and the create sent again", async () => {
  const w = world({ exclusive: false, adoptable: (o) => o.status !== "unusable" });
  let posts = 0;
  const result = await w.run(async () => {
    posts++;
    if (posts === 1) {
      w.make("unusable");
      throw reset();
    }
    return w.make();
  });
  expect(result).toMatchObject({ id: 2, status: "ok" });
  expect(w.deleted).toEqual(["1"]);
  expect(w.objects.map((o) => o.id)).toEqual([2]);
});

test("a create that never lands gives up after MAX_CREATE_ATTEMPTS with the last failure", async () => {
  const w = world();
  let posts = 0;
  const error = await w
    .run(async () => {
      posts++;
      throw serverError();
    })
    .catch((e: unknown) => e);
  expect(posts).toBe(MAX_CREATE_ATTEMPTS);
  expect(error).toBeInstanceOf(ApiError);
});

describe("postExactlyOnce: a create inside a resource, resolved by listing its parent", () => {
  const inner = (outcomes: Array<() => Promise<{ id: number }>>, listings: Array<Array<{ id: number }>>) => {
    const lines: string[] = [];
    let posts = 0;
    const run = postExactlyOnce({
      what: 'records["www A"]',
      post: () => outcomes[posts++]!(),
      made: async () => listings.shift() ?? [],
      idOf: (o) => o.id,
      progress: (line) => lines.push(line),
    });
    return { run, lines, posts: () => posts };
  };

  test("one object made is kept, none means sending again, several fail naming them", async () => {
    const kept = inner([() => Promise.reject(reset())], [[{ id: 7 }]]);
    await expect(kept.run).resolves.toEqual({ id: 7 });
    expect(kept.lines).toEqual([
      'records["www A"]: the create request failed (connection failed (ECONNRESET)) but had created it (id 7); kept',
    ]);

    const resent = inner([() => Promise.reject(serverError()), () => Promise.resolve({ id: 8 })], [[]]);
    await expect(resent.run).resolves.toEqual({ id: 8 });
    expect(resent.posts()).toBe(2);
    expect(resent.lines).toEqual([expect.stringMatching(/and it did not land; sending it again$/)]);

    const several = inner([() => Promise.reject(reset())], [[{ id: 1 }, { id: 2 }]]);
    await expect(several.run).rejects.toThrow(
      new UnresolvedCreateError(
        'records["www A"]: the create request failed (connection failed (ECONNRESET)) and 2 matching objects appeared meanwhile (ids 1, 2); which one it made cannot be told',
      ),
    );
  });

  test("a refusal is not retried, and ambiguous failures stop after MAX_CREATE_ATTEMPTS sends", async () => {
    const refused = inner([() => Promise.reject(ApiError.from(400, [{ reason: "bad" }], POST))], []);
    await expect(refused.run).rejects.toBeInstanceOf(ApiError);
    expect(refused.posts()).toBe(1);
    const lost = inner(
      Array.from({ length: MAX_CREATE_ATTEMPTS }, () => () => Promise.reject(reset())),
      [],
    );
    await expect(lost.run).rejects.toBeInstanceOf(ConnectionError);
    expect(lost.posts()).toBe(MAX_CREATE_ATTEMPTS);
  });
});

test("a taken key whose object equals the inputs names `pulumi-compute recover` first", async () => {
  const w = world();
  w.make();
  const error = await w
    .run(
      async () => ({ id: 0 }),
      undefined,
      () => true,
    )
    .catch((e: unknown) => e);
  expect((error as Error).message).toBe(
    'a thing with label "x" already exists (id 1) and equals this resource\'s inputs: if an earlier run was interrupted, ' +
      "run `npx pulumi-compute recover` (it hands the objects that run created to the stack), then `pulumi up` again. " +
      "Otherwise, if it is the one this resource should manage, set adoptId: 1 on the resource and run `pulumi up` again, " +
      "or change the key or delete that thing.",
  );
});

describe("a pending create, as recover decides it (the create's own lookup)", () => {
  test("one object with the key is the one the interrupted create made: adopted", async () => {
    const w = world();
    w.make();
    expect(await w.pending()).toEqual({ outcome: "adopted", id: "1", reason: 'thing with label "x"' });
  });

  test("none: the create never landed, cleared", async () => {
    expect(await world().pending()).toEqual({ outcome: "cleared", reason: 'no thing with label "x" exists: the create never landed' });
  });

  test("an object another resource of the stack manages is not it", async () => {
    const w = world();
    w.make();
    expect(await w.pending(["1"])).toMatchObject({ outcome: "cleared" });
  });

  test("several: refused, naming them", async () => {
    const w = world({ exclusive: false });
    w.make();
    w.make();
    expect(await w.pending()).toEqual({
      outcome: "refused",
      reason: '2 objects (thing with label "x") exist: ids 1, 2; set adoptId to the one to manage and delete the others',
    });
  });

  test("an object that cannot be adopted: refused", async () => {
    const w = world({ adoptable: (o) => o.status === "ok" });
    w.make("broken");
    expect(await w.pending()).toMatchObject({
      outcome: "refused",
      reason: expect.stringContaining('thing 1 (thing with label "x") cannot be adopted'),
    });
  });

  test("a lookup that keeps failing: refused, saying why", async () => {
    const w = world();
    w.failLookups(...Array.from({ length: 20 }, serverError));
    const decided = await w.pending();
    expect(decided).toMatchObject({ outcome: "refused" });
    expect(decided.reason).toMatch(/^looking for a thing with label "x" failed \(HTTP 500: Internal server error\); run recover again$/);
  });

  test("an adoptId is the object; a resource without a natural key repeats its create safely", async () => {
    const w = world();
    expect(await w.pending([], { adoptId: 7 })).toEqual({ outcome: "adopted", id: "7", reason: "its adoptId" });
    const keyless = { ...w.spec, name: "Thing", naturalKey: undefined } as AnySpec;
    expect(await resolvePendingCreate(keyless, w.ctx, {}, new Set(), AbortSignal.timeout(300))).toMatchObject({ outcome: "cleared" });
  });
});
