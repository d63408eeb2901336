/** The exit codes of every `pulumi-compute` command (drift's 2 is its finding, not a failure). */
export const EXIT = { clean: 0, error: 1, drift: 2 } as const;
