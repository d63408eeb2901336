/**
 * Preloaded into the provider plugin's process by its launcher (`plugins/pulumi-resource-compute`,
 * `node -r`), before the plugin loads `@pulumi/pulumi`, so the process starts quickly
 * (`host/quick-start.ts`); `main.ts` says what could not be deferred.
 */
import { startQuickly } from "../host/quick-start";

startQuickly(require.resolve("@pulumi/pulumi/package.json"));
