/**
 * A resource kind's Pulumi type tokens. The same kind reaches the engine through two doors: as a
 * dynamic resource of a TypeScript program (`pulumi-nodejs:dynamic/compute:Vpc`), and as a
 * resource of this package's provider plugin (`compute:index:Vpc`). Whatever reads a type from
 * state or from the engine (drift, the policy pack, `isInstance`) knows both.
 */

/** The package's name in type tokens. */
export const TYPE_MODULE = "compute";

/** The dynamic resource's type token of `kind`. */
export const dynamicType = (kind: string): string => `pulumi-nodejs:dynamic/${TYPE_MODULE}:${kind}`;

/** The provider plugin's type token of `kind`. */
export const packageType = (kind: string): string => `${TYPE_MODULE}:index:${kind}`;

const TOKEN = new RegExp(`^(?:pulumi-nodejs:dynamic/${TYPE_MODULE}|${TYPE_MODULE}:index):([A-Za-z][A-Za-z0-9]*)$`);

/** The kind a type token names through either door (`Vpc`), or undefined for another package's type. */
export function kindOfType(type: string): string | undefined {
  return TOKEN.exec(type)?.[1];
}
