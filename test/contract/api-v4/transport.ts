/**
 * Points `@linode/api-v4` at an emulator. The client keeps its transport in one shared axios
 * instance (`baseRequest`) with absolute `https://api.linode.com/v4…` URLs, so the only way in is
 * interceptors on that instance: the token (`setToken`), a rewrite of the origin, the renaming shim
 * (`rename.ts`), and a recorder of every request sent and every one refused. `detach()` ejects them
 * all, so the next emulator starts from a clean client.
 */
import { v4 } from "./client";
import { renameAnswer, renameRequestBody, renameRequestUrl } from "./rename";

const { baseRequest, setToken } = v4;

/** `as-sent`: each request on the base the client chose (`/v4` or `/v4beta`); `v4`: every request forced onto `/v4`. */
export type BaseMode = "as-sent" | "v4";

export interface SentRequest {
  method: string;
  /** The base the request went to, after the mode applied. */
  base: "v4" | "v4beta";
  /** The path under the base, in the spec's names, without the query. */
  path: string;
}

export interface Refusal {
  method: string;
  path: string;
  status: number;
  /** The request body as sent (spec's names), to see which field was refused. */
  body: unknown;
  /** The API's `{field, reason}` entries, as `field: reason`. */
  reasons: string[];
}

export interface Transport {
  sent: SentRequest[];
  refusals: Refusal[];
  detach(): void;
}

const CLIENT_ROOT = /^https:\/\/api\.linode\.com\/(v4beta|v4)(?=\/|$)/;

export function attachClient(origin: string, token: string, mode: BaseMode): Transport {
  const sent: SentRequest[] = [];
  const refusals: Refusal[] = [];
  const tokenInterceptor = setToken(token);
  const requestInterceptor = baseRequest.interceptors.request.use((config) => {
    const url = config.url ?? "";
    const root = CLIENT_ROOT.exec(url);
    if (!root) throw new Error(`the client built a URL outside its API root: ${url}`);
    const base = mode === "v4" ? "v4" : (root[1] as "v4" | "v4beta");
    const rest = renameRequestUrl(url.slice(root[0].length));
    config.url = `${origin}/${base}${rest}`;
    if (config.data !== undefined) config.data = renameRequestBody(config.data);
    sent.push({ method: (config.method ?? "get").toUpperCase(), base, path: rest.split("?")[0]! });
    return config;
  });
  const responseInterceptor = baseRequest.interceptors.response.use(
    (response) => {
      response.data = renameAnswer(response.data);
      return response;
    },
    (error: unknown) => {
      // An axios error (the client declares axios only as its own dependency, so it is read by shape).
      const { response, config } = error as {
        response?: { status: number; data?: unknown };
        config?: { method?: string; url?: string; data?: unknown };
      };
      if (response) {
        const data = response.data as { errors?: Array<{ field?: string; reason?: string }> } | undefined;
        refusals.push({
          method: (config?.method ?? "get").toUpperCase(),
          path: new URL(config?.url ?? "", origin).pathname,
          status: response.status,
          body: parseBody(config?.data),
          reasons: (data?.errors ?? []).map((e) => (e.field ? `${e.field}: ${e.reason}` : String(e.reason))),
        });
      }
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    },
  );
  return {
    sent,
    refusals,
    detach() {
      baseRequest.interceptors.request.eject(tokenInterceptor);
      baseRequest.interceptors.request.eject(requestInterceptor);
      baseRequest.interceptors.response.eject(responseInterceptor);
    },
  };
}

/** Axios has serialized the body to JSON by the time an error comes back. */
function parseBody(data: unknown): unknown {
  if (typeof data !== "string") return data;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return data;
  }
}
