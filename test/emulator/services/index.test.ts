/**
 * The service registry (`emulator/services/index.ts`): every service folder has a module in the
 * one list, and everything a module declares is reachable in a running emulator — its routes are
 * served, its slices are in every account, its counters in the state, its grants can be given, its
 * clock source and extra registrations are installed, its control operations are offered in
 * process and under `/__emulator`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { CONTROL_PREFIX, Emulator, buildEmulator } from "../../../emulator";
import { Clock } from "../../../emulator/core/clock";
import { type RouteSpec, routePath, toFastifyPath } from "../../../emulator/core/routes";
import { type ServiceModule, grantNames } from "../../../emulator/core/service";
import { ACCOUNT_ID, USER_ID, createState, idCounter, nextId } from "../../../emulator/core/state";
import { API_ROUTES, SERVICES, STATE_LAYOUT } from "../../../emulator/services";
import { startTestEmulator } from "../helpers";

const SERVICES_FOLDER = path.resolve(__dirname, "../../../emulator/services");
const folders = fs
  .readdirSync(SERVICES_FOLDER, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();
const byName = new Map(SERVICES.map((s) => [s.name, s]));
/** What the modules declare of one kind, each with its module's name. */
const each = <T>(pick: (s: ServiceModule) => readonly T[] | undefined) =>
  SERVICES.flatMap((s) => (pick(s) ?? []).map((item) => [s.name, item] as const));
/** `[method, path, value]`: a failed expectation names the route. */
const about = (route: RouteSpec | { method: string; path: string }, value: unknown) =>
  "endpoint" in route ? [route.endpoint.method, routePath(route), value] : [route.method, route.path, value];

test("every folder under emulator/services has its module (module.ts) in the one list, and no module lacks a folder", () => {
  expect(SERVICES.map((s) => s.name).sort()).toEqual(folders);
  for (const folder of folders) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- each folder's module, found by file name
    const exported = Object.values(require(path.join(SERVICES_FOLDER, folder, "module.ts")) as Record<string, unknown>);
    expect([folder, exported.some((value) => value === byName.get(folder))]).toEqual([folder, true]);
  }
});

test("every route belongs to the module that lists it (its endpoint's service), and is in the table the emulator serves", () => {
  for (const [name, route] of each((s) => s.routes)) expect(about(route, route.endpoint.service)).toEqual(about(route, name));
  expect(API_ROUTES).toEqual(SERVICES.flatMap((s) => s.routes ?? []));
  const app = buildEmulator();
  try {
    for (const route of API_ROUTES) {
      expect(app.emulator.routes).toContain(route);
      const served = app.hasRoute({ method: route.endpoint.method, url: toFastifyPath(routePath(route)) });
      expect(about(route, served)).toEqual(about(route, true));
    }
  } finally {
    app.emulator.dispose();
  }
});

test("slices and counters: unique, and in every account and the state from the start", async () => {
  const keys = each((s) => s.slices).map(([, slice]) => slice.key);
  expect(new Set(keys).size).toBe(keys.length);
  const kinds = [ACCOUNT_ID, USER_ID, ...each((s) => s.counters).map(([, counter]) => counter)].map((c) => c.kind);
  expect(new Set(kinds).size).toBe(kinds.length);
  expect(STATE_LAYOUT.slices.map((s) => s.key)).toEqual(keys);
  expect(STATE_LAYOUT.counters.map((c) => c.kind)).toEqual(kinds);

  const emu = await startTestEmulator();
  try {
    const other = emu.control.createAccount();
    const state = emu.control.dumpState();
    for (const account of [state.accounts[state.primaryAccount]!, state.accounts[other.account]!]) {
      for (const [name, slice] of each((s) => s.slices)) {
        expect([name, slice.key, slice.of(account)]).toEqual([name, slice.key, slice.initial()]);
      }
    }
    for (const [name, counter] of each((s) => s.counters)) {
      expect([name, counter.kind, state.counters[counter.kind]]).toEqual([name, counter.kind, counter.start]);
    }
  } finally {
    await emu.close();
  }
});

test("a counter no module declares is refused, not started silently", () => {
  const state = createState(STATE_LAYOUT, "t".repeat(64));
  expect(() => nextId(state, idCounter("undeclared", 1))).toThrow(/not registered/);
});

test("grants: every grant a route requires is declared by a module, once, and can be given to a restricted user", async () => {
  const names = grantNames(SERVICES);
  expect(new Set(names.objects).size).toBe(names.objects.length);
  expect(new Set(names.global).size).toBe(names.global.length);
  for (const route of API_ROUTES) {
    if (!route.grant) continue;
    const name = route.grant.kind === "global" ? route.grant.grant : route.grant.object;
    const declared = route.grant.kind === "global" ? names.global : names.objects;
    expect(about(route, declared.includes(name))).toEqual(about(route, true));
  }
  const emu = await startTestEmulator();
  try {
    const global = Object.fromEntries(names.global.map((name) => [name, true]));
    const objects = Object.fromEntries(names.objects.map((kind) => [kind, [{ id: 1, permissions: "read_only" as const }]]));
    const token = emu.control.createToken({ restricted: true, grants: { global, ...objects } });
    const user = emu.control.dumpState().accounts.primary!.users[token.username]!;
    expect(user.grants).toEqual({ global, ...objects });
  } finally {
    await emu.close();
  }
});

test("clock sources and registrations outside /v4 are installed once per emulator", () => {
  const addSource = jest.spyOn(Clock.prototype, "addSource");
  const registrations = SERVICES.filter((s) => s.register).map((s) => jest.spyOn(s, "register"));
  try {
    const emulator = new Emulator();
    expect(addSource).toHaveBeenCalledTimes(SERVICES.filter((s) => s.clock).length);
    const app = emulator.buildApp();
    for (const registration of registrations) expect(registration).toHaveBeenCalledWith(app, emulator);
    emulator.dispose();
  } finally {
    jest.restoreAllMocks();
  }
});

test("control operations: each module's are members of the control and served under /__emulator", async () => {
  const app = buildEmulator();
  await app.ready(); // the control API is a plugin: its routes exist once the app is ready
  try {
    const control = app.emulator.control as unknown as Record<string, unknown>;
    for (const service of SERVICES) {
      if (!service.control) continue;
      const api = service.control.api({ runtime: app.emulator, account: () => app.emulator.state.accounts.primary! });
      for (const [name, operation] of Object.entries(api)) {
        expect([service.name, name, typeof control[name]]).toEqual([service.name, name, typeof operation]);
      }
      for (const route of service.control.routes(api)) {
        const listed = app.emulator.control.serviceRoutes.some((r) => r.method === route.method && r.path === route.path);
        expect(about(route, listed)).toEqual(about(route, true));
        expect(about(route, app.hasRoute({ method: route.method, url: CONTROL_PREFIX + route.path }))).toEqual(about(route, true));
      }
    }
  } finally {
    await app.close();
  }
});
