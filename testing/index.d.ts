// The types of `pulumi-compute/testing` (see index.js).
export * from "../dist/provider/testing";
