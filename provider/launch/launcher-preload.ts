/**
 * Preloaded (`node -r`) by the launchers of this package's own processes, the provider plugin
 * (`plugins/pulumi-resource-compute`) and the policy pack (`policy/compute-guardrails`), before
 * they load `@pulumi/pulumi`, so that each starts quickly (`launch/quick-start.ts`); each says what
 * could not be deferred (`saySlowStart`).
 */
import { startQuickly } from "./quick-start";

startQuickly(require.resolve("@pulumi/pulumi/package.json"));
