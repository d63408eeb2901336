// The types of `pulumi-compute/testing` (see testing.js).
export * from "./dist/provider/testing";
