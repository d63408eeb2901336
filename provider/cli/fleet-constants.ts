/** Defaults of `drift --all`, apart from fleet.ts so the command line reads them without loading @pulumi/pulumi. */
export const DEFAULT_PARALLEL = 4;
