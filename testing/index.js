// `pulumi-compute/testing`: mocks and emulated stacks for a project's own tests
// (provider/testing/). A folder at the package root, as `registry/` and `policy/` are, so the name
// resolves without an exports map and every deep import that works today keeps working.
module.exports = require("../dist/provider/testing");
