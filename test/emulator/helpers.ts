/**
 * Test helpers: start an emulator on a random port and talk to it over real HTTP with undici.
 */
import { request } from "undici";
import type { z } from "zod";
import { type ErrorEntry, issuesToErrors } from "../../sdk/core/schema";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";

export interface ApiResponse<T = any> {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON, or undefined when the body is not JSON. */
  body: T;
  text: string;
}

export interface CallOptions {
  /** Bearer token; `null` sends no Authorization header. Default: the emulator's primary token. */
  token?: string | null;
  body?: unknown;
  /** Sent as-is instead of `body` (for malformed JSON tests). */
  rawBody?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number>;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}

export async function call<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: CallOptions = {},
  defaultToken?: string,
): Promise<ApiResponse<T>> {
  const token = options.token === undefined ? defaultToken : options.token;
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (token) headers["authorization"] = `Bearer ${token}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === "content-type"))
    headers["content-type"] = "application/json";
  const url = new URL(baseUrl + path);
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, String(v));
  const response = await request(url, { method: method as "GET", headers, body });
  const text = await response.body.text();
  let parsed: unknown;
  try {
    parsed = text === "" ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.statusCode, headers: flattenHeaders(response.headers), body: parsed as T, text };
}

/** A running emulator plus shorthand API calls (paths relative to `/v4`). */
export interface TestEmulator extends RunningEmulator {
  api<T = any>(method: string, path: string, options?: CallOptions): Promise<ApiResponse<T>>;
  get<T = any>(path: string, options?: CallOptions): Promise<ApiResponse<T>>;
  post<T = any>(path: string, body?: unknown, options?: CallOptions): Promise<ApiResponse<T>>;
  put<T = any>(path: string, body?: unknown, options?: CallOptions): Promise<ApiResponse<T>>;
  del<T = any>(path: string, options?: CallOptions): Promise<ApiResponse<T>>;
  /** Calls the control API over HTTP (paths relative to `/__emulator`). */
  ctl<T = any>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>>;
}

export async function startTestEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const running = await startEmulator(options);
  const api = <T>(method: string, path: string, o: CallOptions = {}) => call<T>(running.url, method, path, o, running.token);
  return Object.assign(running, {
    api,
    get: <T>(path: string, o?: CallOptions) => api<T>("GET", path, o),
    post: <T>(path: string, body?: unknown, o: CallOptions = {}) => api<T>("POST", path, { ...o, body }),
    put: <T>(path: string, body?: unknown, o: CallOptions = {}) => api<T>("PUT", path, { ...o, body }),
    del: <T>(path: string, o?: CallOptions) => api<T>("DELETE", path, o),
    ctl: <T>(method: string, path: string, body?: unknown) => call<T>(running.controlUrl, method, path, body === undefined ? {} : { body }),
  });
}

/** The single error entry of a 4xx body, checked to be the only one. */
export function onlyError(response: Pick<ApiResponse, "body">): { reason: string; field?: string } {
  expect(response.body?.errors).toHaveLength(1);
  return response.body.errors[0];
}

/** The body of a 200 answer; anything else fails with the status and the body. */
export async function ok(response: Promise<ApiResponse>): Promise<any> {
  const answer = await response;
  if (answer.status !== 200) throw new Error(`expected 200, got ${answer.status}: ${answer.text}`);
  return answer.body;
}

/** A refusal with one error entry: its status, its reason, and its field (none when `field` is left out). */
export function expectError(r: Pick<ApiResponse, "status" | "body">, status: number, reason: string, field?: string): void {
  expect({ status: r.status, body: r.body }).toMatchObject({ status });
  const e = onlyError(r);
  expect(e.reason).toBe(reason);
  if (field === undefined) expect(e).not.toHaveProperty("field");
  else expect(e.field).toBe(field);
}

/** The entries the sdk's own schema reports for a body: the emulator must answer exactly these. */
export function sdkErrors(schema: z.ZodType, body: unknown): ErrorEntry[] {
  const parsed = schema.safeParse(body);
  if (parsed.success) throw new Error("body is valid");
  return issuesToErrors(parsed.error);
}

/** A VPC create body in a VPC-capable region. */
export function vpcBody(label: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { label, region: "es-mad", ...extra };
}
