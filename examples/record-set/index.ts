// Entry point of this example's Pulumi.yaml (`pulumi up` in this folder, after `npm run build`).
import { recordSetExample } from "./program";

export = recordSetExample();
