/**
 * The policy pack's program: the engine starts it through `policy/compute-guardrails` (a file
 * given to `--policy-pack`, which the engine runs itself with its address), in the package's
 * folder, where `@pulumi/policy` reads the pack's version from `package.json`.
 */
import { PolicyPack } from "@pulumi/policy";
import { recordedSlowStart, saySlowStart } from "../launch/quick-start";
import { COMPUTE_POLICIES, POLICY_PACK } from "./index";

saySlowStart(recordedSlowStart(), (line) => console.error(line));

new PolicyPack(POLICY_PACK, { policies: COMPUTE_POLICIES });
