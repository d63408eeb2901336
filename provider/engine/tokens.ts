/**
 * The Pulumi type tokens of this package's resources and data functions, through either door:
 * a dynamic resource of a TypeScript program is `pulumi-nodejs:dynamic/compute:<Kind>` (served by
 * Pulumi's dynamic provider host), the same resource through the provider plugin
 * `pulumi-resource-compute` (Pulumi YAML, or any program naming the package) is
 * `compute:index:<Kind>`, and a data function there is `compute:index:<function>`.
 */

/** The package's name: its configuration namespace (`compute:token`) and its plugin's (`pulumi-resource-compute`). */
export const PACKAGE = "compute";

/** `pulumi-nodejs:dynamic/compute:Vpc`: a resource of the dynamic door. */
export const dynamicType = (kind: string): string => `pulumi-nodejs:dynamic/${PACKAGE}:${kind}`;

/** `compute:index:Vpc`: a resource (or `compute:index:getVpc`, a data function) of the plugin's door. */
export const packageToken = (name: string): string => `${PACKAGE}:index:${name}`;

const KIND = new RegExp(`^(?:pulumi-nodejs:dynamic/${PACKAGE}|${PACKAGE}:index):(\\w+)$`);

/** The resource kind (or function name) of a token of either door; undefined for any other. */
export function kindOfToken(token: string): string | undefined {
  return KIND.exec(token)?.[1];
}
