// `pulumi-compute/registry`: the entry point the serialized provider shim loads at call time (see
// provider/classes/shim.ts). Every stack's state names it (`require('pulumi-compute/registry')`),
// so it resolves as it always has: the folder's index, as every face of the package is a folder.
module.exports = require("../dist/provider/registry");
