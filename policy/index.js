// `pulumi-compute/policy`: the guardrails of the compute-guardrails pack, to compose a pack of
// your own (docs/guides/policy.md). The pack itself runs from `compute-guardrails` beside this file.
module.exports = require("../dist/provider/policy/index");
