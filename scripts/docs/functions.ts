/**
 * The data functions as the reference pages describe them, read from the package's own sources
 * with the TypeScript checker: every `getX` that `provider/index.ts` exports (its `getXOutput`
 * form beside it), its TSDoc, its arguments and the fields of its result. Types hold no example, so
 * each function's example is written here; the generator refuses a function without one, and an
 * example for a function the package does not export.
 */
import * as path from "node:path";
import ts from "typescript";

/** One property of an argument or result type, as a reference table shows it. */
export interface FieldDoc {
  name: string;
  type: string;
  optional: boolean;
  description: string;
}

export interface FunctionDoc {
  name: string;
  description: string;
  /** Whether the arguments may be left out (`getRegions()`). */
  argsOptional: boolean;
  /** The argument fields; with `ways`, the alternatives of a union (`id`, or `label`). */
  args: FieldDoc[];
  ways: string[][];
  /** The result: one object, or a list of them (`[]`). */
  returnsList: boolean;
  resultType: string;
  result: FieldDoc[];
  example: string;
}

/**
 * A short program per data function, type-checked with every other example of the docs
 * (`test/docs/examples.test.ts`). The `…Output` form, since a program's top level cannot await.
 */
export const FUNCTION_EXAMPLES: Record<string, string> = {
  getRegions: 'export const vpcRegions = compute.getRegionsOutput({ capability: "VPCs" }).apply((rs) => rs.map((r) => r.id));',
  getRegion: 'export const country = compute.getRegionOutput({ id: "us-iad" }).apply((r) => r.country);',
  getRegionAvailability: 'export const plans = compute.getRegionAvailabilityOutput({ regionId: "us-iad" });',
  getVpcs: 'export const vpcLabels = compute.getVpcsOutput({ region: "us-iad" }).apply((vs) => vs.map((v) => v.label));',
  getVpc: [
    'const shared = compute.getVpcOutput({ label: "shared-net" });',
    'new compute.VpcSubnet("app", { vpcId: shared.id, label: "app", ipv4: "10.0.3.0/24" });',
  ].join("\n"),
  getVpcSubnets: "export const subnets = compute.getVpcSubnetsOutput({ vpcId: 12345 }).apply((ss) => ss.map((s) => s.ipv4));",
  getVpcSubnet: [
    'const vpc = new compute.Vpc("app", { label: "app-net", region: "us-iad" });',
    'export const webRange = compute.getVpcSubnetOutput({ vpcId: vpc.id, label: "web" }).apply((s) => s.ipv4);',
  ].join("\n"),
  getVpcIps: "export const vpcAddresses = compute.getVpcIpsOutput({ vpcId: 12345 }).apply((ips) => ips.map((ip) => ip.address));",
  getFirewalls: "export const firewallLabels = compute.getFirewallsOutput().apply((fws) => fws.map((fw) => fw.label));",
  getFirewall: [
    'const edge = compute.getFirewallOutput({ label: "edge-fw" });',
    'new compute.FirewallDevice("web-1", { firewallId: edge.id, entityId: 12345, entityType: "compute" });',
  ].join("\n"),
  getIps: 'export const publicV4 = compute.getIpsOutput({ type: "ipv4", public: true }).apply((ips) => ips.map((ip) => ip.address));',
  getIpv6Pools: 'export const pools = compute.getIpv6PoolsOutput({ region: "us-iad" });',
  getIpv6Ranges: 'export const ranges = compute.getIpv6RangesOutput({ region: "us-iad" }).apply((rs) => rs.map((r) => r.range));',
  getIpv6Range: 'export const shared = compute.getIpv6RangeOutput({ range: "2600:3c00:e000:100::" }).apply((r) => r.isBgp);',
  getVlans: 'export const vlans = compute.getVlansOutput({ region: "us-iad" }).apply((vs) => vs.map((v) => v.label));',
  getDomains: 'export const zones = compute.getDomainsOutput({ tag: "prod" }).apply((ds) => ds.map((d) => d.domain));',
  getDomain: [
    'const zone = compute.getDomainOutput({ domain: "example.com" });',
    'new compute.DomainRecord("www", { domainId: zone.id, type: "A", name: "www", target: "203.0.113.10" });',
  ].join("\n"),
  getDomainRecords: 'export const mx = compute.getDomainRecordsOutput({ domainId: 12345, type: "MX" });',
  getDomainRecord:
    'export const wwwTarget = compute.getDomainRecordOutput({ domainId: 12345, name: "www", type: "A" }).apply((r) => r.target);',
  getDomainZoneFile: 'export const zoneFile = compute.getDomainZoneFileOutput({ domainId: 12345 }).apply((z) => z.zoneFile.join("\\n"));',
  getDatabaseEngines: [
    "const engines = compute.getDatabaseEnginesOutput();",
    "export const newestPostgres = engines.apply((e) => e.latest.postgresql);",
  ].join("\n"),
  getDatabases: "export const databaseLabels = compute.getDatabasesOutput().apply((dbs) => dbs.map((db) => db.label));",
  getMysqlDatabase: [
    'const db = compute.getMysqlDatabaseOutput({ label: "shared-db" });',
    "export const dbHost = db.hosts.primary;",
    "export const dbPassword = db.rootPassword; // a secret, as the whole result is",
  ].join("\n"),
  getPostgresqlDatabase: "export const reportsPort = compute.getPostgresqlDatabaseOutput({ id: 12345 }).port;",
  getDatabaseBackups: 'export const latestBackup = compute.getDatabaseBackupsOutput({ engine: "mysql", databaseId: 12345, latest: true });',
  getImages: "export const myImages = compute.getImagesOutput({ isPublic: false }).apply((is) => is.map((i) => i.id));",
  getImage: 'export const ubuntuSize = compute.getImageOutput({ id: "public/ubuntu22.04" }).size;',
};

const TYPE_FLAGS = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType;

/** The package's data functions, sorted by name. */
export function findFunctions(root: string): FunctionDoc[] {
  const entry = path.join(root, "provider/index.ts");
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  const exported = checker.getExportsOfModule(moduleSymbol).map((s) => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s));
  const names = new Set(exported.map((s) => s.getName()));
  const functions = exported.filter((s) => s.flags & ts.SymbolFlags.Function && /^get[A-Z]/.test(s.getName()));

  const docOf = (symbol: ts.Symbol) =>
    ts
      .displayPartsToString(symbol.getDocumentationComment(checker))
      .replace(/\s*\n\s*/g, " ")
      .trim();
  const withoutNullish = (type: ts.Type) => (type.isUnion() ? checker.getNonNullableType(type) : type);
  /** A field's type in a table: primitives and literals spelled out, objects by their keys. */
  const typeText = (type: ts.Type, depth = 0): string => {
    const nullable = type.isUnion() && type.types.some((t) => t.flags & ts.TypeFlags.Null);
    const bare = withoutNullish(type);
    const orNull = nullable ? " | null" : "";
    if (checker.isArrayType(bare)) {
      const element = checker.getTypeArguments(bare as ts.TypeReference)[0]!;
      const inner = typeText(element, depth);
      return `${/[ |]/.test(inner) && !inner.startsWith("{") ? `(${inner})` : inner}[]${orNull}`;
    }
    const isObject = bare.flags & ts.TypeFlags.Object && !bare.getCallSignatures().length;
    if (isObject && !bare.isUnion()) {
      const keys = checker.getPropertiesOfType(bare).map((p) => p.getName());
      if (keys.length && depth < 1) return `{ ${keys.join(", ")} }${orNull}`;
      if (keys.length) return `object${orNull}`;
    }
    return checker.typeToString(type, undefined, TYPE_FLAGS);
  };
  const fieldsOf = (type: ts.Type, at: ts.Node): FieldDoc[] =>
    checker.getPropertiesOfType(type).map((p) => {
      const propType = checker.getTypeOfSymbolAtLocation(p, at);
      const optional = (p.flags & ts.SymbolFlags.Optional) !== 0;
      return {
        name: p.getName(),
        type: optional ? typeText(propType).replace(/ \| undefined$/, "") : typeText(propType),
        optional,
        description: docOf(p),
      };
    });

  const docs = functions.map((symbol): FunctionDoc => {
    const name = symbol.getName();
    if (!names.has(`${name}Output`)) throw new Error(`${name} has no ${name}Output form`);
    const example = FUNCTION_EXAMPLES[name];
    if (example === undefined) throw new Error(`scripts/docs/functions.ts has no example for ${name}`);
    const declaration = symbol.getDeclarations()![0] as ts.FunctionDeclaration;
    const signature = checker.getSignatureFromDeclaration(declaration)!;
    const argsParam = declaration.parameters[0]!;
    const argsType = withoutNullish(checker.getTypeAtLocation(argsParam));
    // A union of objects names one object in several ways: each way's keys are those it requires.
    const alternatives = argsType.isUnion() ? argsType.types : [argsType];
    const byName = new Map<string, FieldDoc>();
    for (const alternative of alternatives) {
      for (const field of fieldsOf(alternative, argsParam)) {
        if (field.type === "undefined" || byName.has(field.name)) continue;
        // Required only when every alternative requires it (`vpcId` of a subnet lookup).
        byName.set(field.name, { ...field, optional: !byNameIsShared(field.name, alternatives, checker) });
      }
    }
    const ways = argsType.isUnion()
      ? alternatives.map((a) =>
          checker
            .getPropertiesOfType(a)
            .filter((p) => !(p.flags & ts.SymbolFlags.Optional) && !byNameIsShared(p.getName(), alternatives, checker))
            .map((p) => p.getName()),
        )
      : [];
    let result = checker.getAwaitedType(signature.getReturnType())!;
    const returnsList = checker.isArrayType(result);
    if (returnsList) result = checker.getTypeArguments(result as ts.TypeReference)[0]!;
    const returnNode = declaration.type;
    const declared = returnNode && ts.isTypeReferenceNode(returnNode) ? returnNode.typeArguments?.[0]?.getText() : undefined;
    return {
      name,
      description: docOf(symbol),
      argsOptional: argsParam.initializer !== undefined || argsParam.questionToken !== undefined,
      args: [...byName.values()],
      ways,
      returnsList,
      resultType: (declared ?? checker.typeToString(result)).replace(/\[\]$/, ""),
      result: fieldsOf(result, declaration),
      example,
    };
  });
  const extra = Object.keys(FUNCTION_EXAMPLES).filter((n) => !docs.some((d) => d.name === n));
  if (extra.length)
    throw new Error(`scripts/docs/functions.ts has examples for functions the package does not export: ${extra.join(", ")}`);
  return docs.sort((a, b) => a.name.localeCompare(b.name));
}

/** A key every alternative of a union requires (`vpcId` of a subnet lookup) is not one of the ways. */
function byNameIsShared(name: string, alternatives: readonly ts.Type[], checker: ts.TypeChecker): boolean {
  return alternatives.every((a) => {
    const p = checker.getPropertyOfType(a, name);
    return p !== undefined && !(p.flags & ts.SymbolFlags.Optional);
  });
}
