/** Fault injection (api-facts P7-1, P8-1) and the request log that proves what reached the emulator. */
import { Agent, request } from "undici";
import { BAD_GATEWAY_HTML, DEFAULT_RETRY_AFTER_SECONDS, MAINTENANCE_HEADER, REASONS } from "../../../emulator";
import { FaultInjector } from "../../../emulator/core/faults";
import { onlyError, startTestEmulator, vpcBody, type TestEmulator } from "../helpers";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.control.reset());

const fired = (id: string) => emu.control.listFaults().find((f) => f.id === id)!.fired;

test("429 sends Retry-After and the recorded envelope", async () => {
  emu.control.addFault({ id: "rl", pathPattern: "/v4/vpcs*", kind: "429", retryAfterSeconds: 7 });
  const r = await emu.get("/vpcs");
  expect(r.status).toBe(429);
  expect(r.headers["retry-after"]).toBe("7");
  expect(r.body).toEqual({ errors: [{ reason: REASONS.tooManyRequests }] });
  expect(REASONS.tooManyRequests).toBe("Too many requests"); // fixtures/error.429.too_many_requests.json
  expect(fired("rl")).toBe(1);
});

test("429 without a configured delay still sends Retry-After", async () => {
  emu.control.addFault({ pathPattern: "/v4/regions", kind: "429" });
  expect((await emu.get("/regions")).headers["retry-after"]).toBe(String(DEFAULT_RETRY_AFTER_SECONDS));
});

test("503 without and with the maintenance header", async () => {
  emu.control.addFault({ id: "plain", pathPattern: "/v4/regions", kind: "503", retryAfterSeconds: 2 });
  emu.control.addFault({ id: "maint", pathPattern: "/v4/vpcs", kind: "503-maintenance" });
  const plain = await emu.get("/regions");
  expect(plain.status).toBe(503);
  expect(plain.headers[MAINTENANCE_HEADER.toLowerCase()]).toBeUndefined();
  expect(plain.headers["retry-after"]).toBe("2");
  expect(onlyError(plain)).toEqual({ reason: REASONS.serviceUnavailable });
  const maint = await emu.get("/vpcs");
  expect(maint.status).toBe(503);
  expect(maint.headers[MAINTENANCE_HEADER.toLowerCase()]).toEqual(expect.stringMatching(/\S/));
  expect(onlyError(maint)).toEqual({ reason: REASONS.maintenance });
});

test("500 answers the JSON envelope", async () => {
  emu.control.addFault({ pathPattern: "/v4/vpcs", kind: "500" });
  const r = await emu.get("/vpcs");
  expect(r.status).toBe(500);
  expect(onlyError(r)).toEqual({ reason: REASONS.internalError });
});

test("502 answers a gateway's HTML page", async () => {
  emu.control.addFault({ pathPattern: "/v4/vpcs", kind: "502" });
  const r = await emu.get("/vpcs");
  expect(r.status).toBe(502);
  expect(r.headers["content-type"]).toMatch(/^text\/html/);
  expect(r.text).toBe(BAD_GATEWAY_HTML);
});

test("latency holds the answer while its rule has the request, and the answer is otherwise normal", async () => {
  emu.control.addFault({ id: "slow", pathPattern: "/v4/regions", kind: "latency", latencyMs: 1_000 });
  let answered = false;
  const answer = emu.get("/regions").then((r) => {
    answered = true;
    return r;
  });
  while (fired("slow") === 0) await new Promise((resolve) => setImmediate(resolve));
  // The rule has taken the request: nothing is answered while it holds it.
  expect(answered).toBe(false);
  const r = await answer;
  expect(r.status).toBe(200);
  expect(fired("slow")).toBe(1);
});

describe("closing an emulator with a latency fault's answer pending", () => {
  const LONG = 10 * 60_000; // far past the test's timeout: waiting it out fails the test
  /** An emulator of its own, with `/v4/regions` answering after LONG, and a request to it received and waiting. */
  async function pendingAnswer(signal?: AbortSignal) {
    const own = await startTestEmulator();
    own.control.addFault({ pathPattern: "/v4/regions", kind: "latency", latencyMs: LONG });
    const dispatcher = new Agent();
    const answer = request(`${own.url}/regions`, { headers: { authorization: `Bearer ${own.token}` }, dispatcher, signal }).then(
      (r) => r.statusCode,
      (error: Error) => error.name,
    );
    while (!own.control.listRequests().some((r) => r.path === "/v4/regions")) await new Promise((r) => setTimeout(r, 5));
    return { own, dispatcher, answer };
  }
  const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;

  test("close does not wait the latency out: the waiting client's connection ends, and nothing is processed", async () => {
    const { own, dispatcher, answer } = await pendingAnswer();
    await own.close();
    expect(await answer).toMatch(/SocketError|Error/);
    expect(own.control.listRequests().find((r) => r.path === "/v4/regions")?.status).toBe(0);
    await dispatcher.destroy();
  });

  test("a client that gave up leaves no timer behind once the emulator is closed (its process can exit)", async () => {
    const gaveUp = new AbortController();
    const { own, dispatcher, answer } = await pendingAnswer(gaveUp.signal);
    gaveUp.abort();
    expect(await answer).toBe("AbortError");
    await dispatcher.destroy();
    const withPendingAnswer = timers();
    await own.close();
    expect(timers()).toBeLessThan(withPendingAnswer);
  });
});

test("faults can be limited to a method and matched by regex", async () => {
  emu.control.addFault({ id: "posts", pathPattern: "^/v4/vpcs$", method: "post", kind: "500" });
  expect((await emu.get("/vpcs")).status).toBe(200);
  expect((await emu.post("/vpcs", vpcBody("v"))).status).toBe(500);
  expect((await emu.get("/vpcs/ips")).status).toBe(200);
  expect(fired("posts")).toBe(1);
});

test("a fault stops the request before authentication and before processing", async () => {
  emu.control.addFault({ pathPattern: "/v4/vpcs", kind: "503" });
  expect((await emu.post("/vpcs", vpcBody("v"), { token: null })).status).toBe(503);
  emu.control.clearFaults();
  expect((await emu.get("/vpcs")).body.results).toBe(0);
});

test("a count-limited fault fires for the next N matches only", async () => {
  emu.control.addFault({ id: "twice", pathPattern: "/v4/regions*", kind: "503", count: 2 });
  const statuses = [];
  for (let i = 0; i < 4; i++) statuses.push((await emu.get("/regions")).status);
  expect(statuses).toEqual([503, 503, 200, 200]);
  expect(emu.control.listFaults()[0]).toMatchObject({ id: "twice", fired: 2, remaining: 0 });
});

test("skip lets the first N matches through, so a later request (the second lookup) is the one hit", async () => {
  emu.control.addFault({ id: "second", pathPattern: "/v4/regions*", kind: "500", skip: 1, count: 1 });
  const statuses = [];
  for (let i = 0; i < 3; i++) statuses.push((await emu.get("/regions")).status);
  expect(statuses).toEqual([200, 500, 200]);
  expect(emu.control.listFaults()[0]).toMatchObject({ id: "second", skip: 1, fired: 1, remaining: 0 });
});

test("a rate-limited fault fires for about that share of requests, reproducibly per seed", async () => {
  const run = async () => {
    emu.control.reset({ seed: 42 });
    emu.control.addFault({ id: "flaky", pathPattern: "/v4/regions", kind: "500", rate: 0.3 });
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await emu.get("/regions")).status);
    return statuses;
  };
  const first = await run();
  const failures = first.filter((s) => s === 500).length;
  expect(failures).toBe(fired("flaky"));
  expect(failures).toBeGreaterThan(3);
  expect(failures).toBeLessThan(25);
  expect(await run()).toEqual(first);
});

test("rate 0 never fires and rate 1 always does", () => {
  const faults = new FaultInjector(7);
  faults.add({ id: "never", pathPattern: "*", kind: "500", rate: 0 });
  for (let i = 0; i < 20; i++) expect(faults.pick("GET", "/v4/x")).toBeUndefined();
  faults.add({ id: "always", pathPattern: "*", kind: "500", rate: 1 });
  for (let i = 0; i < 20; i++) expect(faults.pick("GET", "/v4/x")?.id).toBe("always");
  expect(faults.list().map((f) => f.fired)).toEqual([0, 20]);
});

describe("connection resets", () => {
  // A private agent per test, so a reset connection never affects other tests' pooled sockets.
  let agent: Agent;
  beforeEach(() => {
    agent = new Agent();
  });
  afterEach(() => agent.close());

  const postVpc = (label: string) =>
    request(`${emu.url}/vpcs`, {
      method: "POST",
      dispatcher: agent,
      headers: { authorization: `Bearer ${emu.token}`, "content-type": "application/json" },
      body: JSON.stringify(vpcBody(label)),
    });

  test("reset cuts the connection after receiving the request and before processing it: nothing is created", async () => {
    emu.control.addFault({ id: "cut", pathPattern: "/v4/vpcs", method: "POST", kind: "reset", count: 1 });
    await expect(postVpc("lost")).rejects.toMatchObject({ code: "ECONNRESET" });
    expect(fired("cut")).toBe(1);
    expect((await emu.get("/vpcs")).body.results).toBe(0);
    expect((await emu.get("/account/events")).body.results).toBe(0);
    const log = emu.control.listRequests().filter((e) => e.method === "POST");
    expect(log).toEqual([expect.objectContaining({ path: "/v4/vpcs", status: 0, fault: "reset" })]);
  });

  test("reset-after processes the request, then cuts the connection: the object exists", async () => {
    emu.control.addFault({ id: "ambiguous", pathPattern: "/v4/vpcs", method: "POST", kind: "reset-after", count: 1 });
    await expect(postVpc("made-anyway")).rejects.toMatchObject({ code: "ECONNRESET" });
    const list = await emu.get("/vpcs");
    expect(list.body.data.map((v: { label: string }) => v.label)).toEqual(["made-anyway"]);
    expect(emu.control.listRequests().filter((e) => e.method === "POST")).toEqual([
      expect.objectContaining({ status: 0, fault: "reset-after" }),
    ]);
    // The rule is spent: the next create goes through normally.
    expect((await postVpc("second")).statusCode).toBe(200);
  });

  test("reset-after also cuts a request that failed, which the client then cannot tell from a success", async () => {
    emu.control.addFault({ pathPattern: "/v4/vpcs", method: "POST", kind: "reset-after", count: 1 });
    await expect(postVpc("bad_label")).rejects.toMatchObject({ code: "ECONNRESET" });
    expect((await emu.get("/vpcs")).body.results).toBe(0);
  });
});

describe("request log", () => {
  test("records API requests with method, path, status and time, but not control requests", async () => {
    await emu.get("/vpcs", { query: { page: 1 } });
    await emu.post("/vpcs", vpcBody("bad_label"));
    await emu.get("/nowhere");
    await emu.ctl("GET", "/clock");
    const log = emu.control.listRequests();
    expect(log.map((e) => [e.method, e.path, e.status])).toEqual([
      ["GET", "/v4/vpcs?page=1", 200],
      ["POST", "/v4/vpcs", 400],
      ["GET", "/v4/nowhere", 404],
    ]);
    for (const e of log) expect(Number.isNaN(Date.parse(e.at))).toBe(false);
  });

  test("is readable and clearable over the control API", async () => {
    await emu.get("/regions");
    const listed = await emu.ctl("GET", "/requests");
    expect(listed.body).toHaveLength(1);
    expect((await emu.ctl("DELETE", "/requests")).status).toBe(200);
    expect(emu.control.listRequests()).toEqual([]);
  });

  test("is empty when nothing was sent", () => {
    expect(emu.control.listRequests()).toEqual([]);
  });
});

describe("fault control API", () => {
  test("add, list with fire counts, remove and clear over HTTP", async () => {
    const added = await emu.ctl("POST", "/faults", { pathPattern: "/v4/vpcs", kind: "429", count: 3 });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ pathPattern: "/v4/vpcs", kind: "429", rate: 1, count: 3, fired: 0, remaining: 3 });
    await emu.get("/vpcs");
    const listed = await emu.ctl("GET", "/faults");
    expect(listed.body).toEqual([expect.objectContaining({ id: added.body.id, fired: 1, remaining: 2 })]);
    expect((await emu.ctl("DELETE", `/faults/${added.body.id}`)).status).toBe(200);
    expect((await emu.ctl("DELETE", `/faults/${added.body.id}`)).status).toBe(404);
    await emu.ctl("POST", "/faults", { pathPattern: "*", kind: "500" });
    expect((await emu.ctl("DELETE", "/faults")).status).toBe(200);
    expect((await emu.ctl("GET", "/faults")).body).toEqual([]);
  });

  test("invalid rules are refused with a field", async () => {
    const bad = await emu.ctl("POST", "/faults", { pathPattern: "/v4/*", kind: "teapot" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe("kind");
    const badRegex = await emu.ctl("POST", "/faults", { pathPattern: "^(", kind: "500" });
    expect(badRegex.status).toBe(400);
    expect(badRegex.body.errors[0].field).toBe("pathPattern");
    const badRate = await emu.ctl("POST", "/faults", { pathPattern: "*", kind: "500", rate: 2 });
    expect(badRate.body.errors[0].field).toBe("rate");
  });
});
