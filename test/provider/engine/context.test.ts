/**
 * The provider context's session (`provider/engine/context.ts`): one client per configuration,
 * its credentials read at call time (stack config first, then the environment), and resolved again
 * only when what they are read from changed.
 */
import { InvalidApiUrlError, MissingCredentialsError, ProviderContext } from "../../../provider/engine/context";

const ENV_KEYS = ["COMPUTE_TOKEN", "COMPUTE_API_URL", "COMPUTE_PACING"] as const;
const saved = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));
afterEach(() => {
  for (const key of ENV_KEYS) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
});
beforeEach(() => {
  for (const key of ENV_KEYS) delete process.env[key];
});

test("every call of one configuration gets the same client; a token or URL changed since gets its own, and going back finds the first", () => {
  const config = new Map<string, string>([
    ["compute:token", "t1"],
    ["compute:apiUrl", "http://127.0.0.1:9/v4"],
  ]);
  const ctx = new ProviderContext(
    (key) => config.get(key),
    () => undefined,
  );
  const first = ctx.client();
  expect(ctx.client()).toBe(first);
  expect(ctx.reads()).toBe(ctx.reads());

  config.set("compute:token", "t2");
  const second = ctx.client();
  expect(second).not.toBe(first);
  config.set("compute:token", "t1");
  expect(ctx.client()).toBe(first);
});

test("the environment is read at each call: a token set after a refused call is used by the next one, and one taken away is refused again", () => {
  const ctx = new ProviderContext(
    () => undefined,
    () => undefined,
  );
  expect(() => ctx.client()).toThrow(MissingCredentialsError);
  process.env.COMPUTE_TOKEN = "from-env";
  process.env.COMPUTE_API_URL = "http://127.0.0.1:9/v4";
  const client = ctx.client();
  expect(ctx.client()).toBe(client);
  process.env.COMPUTE_API_URL = "http://127.0.0.1:9";
  expect(() => ctx.client()).toThrow(InvalidApiUrlError);
  expect(() => ctx.client()).toThrow(InvalidApiUrlError);
  delete process.env.COMPUTE_API_URL;
  delete process.env.COMPUTE_TOKEN;
  expect(() => ctx.client()).toThrow(MissingCredentialsError);
});

test("pacing turned off in the environment after the first call gives the calls after it a client of their own", () => {
  const ctx = new ProviderContext(
    (key) => ({ "compute:token": "t", "compute:apiUrl": "http://127.0.0.1:9/v4" })[key],
    () => undefined,
  );
  const paced = ctx.client();
  process.env.COMPUTE_PACING = "off";
  expect(ctx.client()).not.toBe(paced);
});
