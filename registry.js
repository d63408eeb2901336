// The entry point the serialized provider shim loads at call time (see provider/shim.ts). It
// lives at the package root so the path embedded in every resource's state stays short.
module.exports = require("./dist/provider/registry");
