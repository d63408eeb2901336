/**
 * The package's configuration as every door serves it: the `compute:*` variables (the credentials
 * and pacing the engine's context resolves, and `compute:previewSupport`), and the rule that says
 * whether previews are served (`previewsServed`). The dynamic resources' `configure`, the provider
 * plugin's `Configure` and its schema all read them from here.
 */
import { CONFIG_API_URL, CONFIG_PACING, CONFIG_TOKEN, DEFAULT_API_URL, ENV_API_URL, ENV_PACING, ENV_TOKEN } from "../engine/context";

/** The stack setting that turns preview support off (`false`); Pulumi's `PULUMI_DISABLE_PROVIDER_PREVIEW` does too. */
export const CONFIG_PREVIEW_SUPPORT = "compute:previewSupport";

/** One configuration variable of the package, as both doors read it and the schema declares it. */
export interface ConfigVariable {
  /** The stack config key (`compute:token`). */
  key: string;
  /** The environment variable read when the stack config has none, if any. */
  env?: string;
  secret?: boolean;
  description: string;
}

/**
 * The package's configuration, by the variable's name in its namespace: what the dynamic
 * resources' `configure` and the provider plugin's `Configure` read (`resolveCredentials`,
 * `resolvePacing`), and what the plugin's schema declares (`config.variables`).
 */
export const CONFIG_VARIABLES: Record<string, ConfigVariable> = {
  token: {
    key: CONFIG_TOKEN,
    env: ENV_TOKEN,
    secret: true,
    description: `The API token (a personal access token or an OAuth token); \`${ENV_TOKEN}\` when unset. Set it with \`pulumi config set --secret ${CONFIG_TOKEN} <token>\`.`,
  },
  apiUrl: {
    key: CONFIG_API_URL,
    env: ENV_API_URL,
    description: `The API's base URL including \`/v4\` (an emulator's, say); \`${ENV_API_URL}\`, else \`${DEFAULT_API_URL}\`, when unset.`,
  },
  previewSupport: {
    key: CONFIG_PREVIEW_SUPPORT,
    description:
      "`false` turns preview support off: previews of in-place updates then show output-only properties as unknown, as Pulumi's plain previews do. `PULUMI_DISABLE_PROVIDER_PREVIEW=true` turns it off for one run. On by default.",
  },
  pacing: {
    key: CONFIG_PACING,
    env: ENV_PACING,
    description: `\`off\` stops the client from pacing itself by the API's rate-limit headers (for an emulator whose limits are off); \`${ENV_PACING}\` when unset. On by default.`,
  },
};

/** Whether the stack's config (as `configure` receives it) leaves preview support on. */
export const previewWanted = (config: (key: string) => unknown): boolean =>
  String(config(CONFIG_PREVIEW_SUPPORT) ?? "")
    .trim()
    .toLowerCase() !== "false";

/** `PULUMI_DISABLE_PROVIDER_PREVIEW`, as the engine reads it (a Go boolean): the engine then asks no provider for previews. */
export function previewOffByEnvironment(env: NodeJS.ProcessEnv = process.env): boolean {
  return /^(1|t|true)$/i.test(env.PULUMI_DISABLE_PROVIDER_PREVIEW ?? "");
}
