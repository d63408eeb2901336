// Entry point of the root Pulumi.yaml: `pulumi up` in the repository root runs this program.
import { quickstart } from "./program";

export = quickstart();
