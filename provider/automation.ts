/**
 * `pulumi-compute/dist/provider/automation`: what an Automation API program calls to drive its
 * stacks (docs/guides/crash-recovery.md, docs/guides/least-privilege-tokens.md). A face: the
 * operations themselves live in `stack/`; this path stays put because programs
 * import it.
 */
export { engineBin, pulumiCommand } from "./stack/pulumi-cli";
export * from "./stack/refresh-drift";
// Recovery after an interrupted run (`pulumi-compute recover` is the same).
export { recover, type RecoverLine, type RecoverOptions, type RecoverReport } from "./stack/recovery";
// The least-privilege scopes of a stack (`pulumi-compute scopes` is the same).
export { stackScopes, scopesOf, type StackScopes } from "./stack/least-scopes";
