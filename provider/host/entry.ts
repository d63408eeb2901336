/** The entry file of Pulumi's dynamic provider host, as its launcher starts it: the process `host/` changes, and only that one. */
export const HOST_ENTRY = /[\\/]@pulumi[\\/]pulumi[\\/]cmd[\\/]dynamic-provider[\\/]index\.js$/;
