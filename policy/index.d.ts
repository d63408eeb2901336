export * from "../dist/provider/policy/index";
