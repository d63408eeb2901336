/** The entry file of Pulumi's dynamic provider host, as its launcher starts it: the process `host/` changes, and only that one. */
export const HOST_ENTRY = /[\\/]@pulumi[\\/]pulumi[\\/]cmd[\\/]dynamic-provider[\\/]index\.js$/;

/** The `@pulumi/pulumi` whose host `host/` was written against (checked by `test/provider/host/preview.test.ts`). */
export const HOST_PINNED = "3.259.0";
