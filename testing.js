// `pulumi-compute/testing`: mocks and emulated stacks for a project's own tests
// (provider/testing/). At the package root, as `registry.js` is, so the name resolves without an
// exports map and every deep import that works today keeps working.
module.exports = require("./dist/provider/testing");
