/**
 * The typed client (`ComputeClient`, `sdk/client.ts`) as its reference page describes it, read from
 * the sdk's own sources with the TypeScript checker: from the client down, every service
 * (`client.vpcs`, `client.networking.firewalls.rules`, …) with its TSDoc and its public methods,
 * each with its signature, the endpoints it calls (read from the types of the sdk's endpoint
 * declarations it names: `VPC_ENDPOINTS.subnets.list` is `GET /vpcs/{vpcId}/subnets`; a service
 * written once for several engines calls the endpoint of its own name, `databases.mysql.update`) and its TSDoc;
 * and every request body a method takes (its `body` parameter), with its fields as the wire names
 * them. The generator refuses a service without TSDoc, and a method with neither TSDoc nor an endpoint.
 */
import ts from "typescript";
import { ENDPOINTS } from "../../sdk/endpoints";
import { docOf, moduleExports } from "./functions";
import { code, escape, firstSentence } from "./format";
import { propertiesInWrittenOrder } from "./written-order";

/** The client's entry, from the repository root. */
export const CLIENT_ENTRY = "sdk/client.ts";

export interface MethodDoc {
  name: string;
  /** `(vpcId: number, body: VpcUpdateRequest, options?: CallOptions): Promise<Vpc>`. */
  signature: string;
  /** Its TSDoc, else the summary of the endpoint it calls. */
  description: string;
  /** The endpoints it calls: `GET /vpcs/{vpcId}/subnets`. */
  endpoints: string[];
  /** The name of its request body's type, when it takes one (`VpcUpdateRequest`). */
  body?: string;
}

export interface ServiceDoc {
  /** Its path from the client: `client.networking.firewalls.rules`. */
  path: string;
  description: string;
  methods: MethodDoc[];
}

export interface BodyField {
  name: string;
  type: string;
  optional: boolean;
}

export interface BodyDoc {
  name: string;
  description: string;
  fields: BodyField[];
}

export interface ClientDocs {
  /** The client's own methods (`request`, `call`, `paginate`, `close`) as a service at `client`. */
  services: ServiceDoc[];
  bodies: BodyDoc[];
}

const TYPE_FLAGS =
  ts.TypeFormatFlags.NoTruncation |
  ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType |
  ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope;

/** Where a service's types are read: the client's declaration, and the service's own as declared (`EngineDatabases<typeof …>`). */
interface Service {
  at: ts.Node;
  /** Below the client: `vpcs.subnets`. */
  path: string;
  /** The item schema of each collection method, by its name (`list` → `Vpc`), for `listAll`. */
  items: Map<string, string>;
  declaredAs?: ts.TypeReferenceNode;
  classDeclaration?: ts.ClassDeclaration | ts.TypeAliasDeclaration;
}

/** Every service and method of the client, in the order of its declarations, and the request bodies they take, sorted by name. */
export function findClientDocs(root: string): ClientDocs {
  const { checker, exported } = moduleExports(root, CLIENT_ENTRY);
  const client = exported.find((s) => s.getName() === "ComputeClient");
  if (!client) throw new Error(`${CLIENT_ENTRY} exports no ComputeClient`);
  const services: ServiceDoc[] = [];
  const bodies = new Map<string, BodyDoc>();

  /** The public, named members of a type: no private or protected ones, no constructor. */
  const publicMembers = (type: ts.Type): ts.Symbol[] =>
    checker.getPropertiesOfType(type).filter((p) => {
      const declaration = p.valueDeclaration ?? p.declarations?.[0];
      if (!declaration || p.name.startsWith("__@")) return false;
      const modifiers = ts.canHaveModifiers(declaration) ? ts.getModifiers(declaration) : undefined;
      return !modifiers?.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword);
    });
  const isMethod = (p: ts.Symbol) => (p.flags & ts.SymbolFlags.Method) !== 0;
  const typeOf = (p: ts.Symbol, at: ts.Node) => checker.getTypeOfSymbolAtLocation(p, at);
  /** A body's fields in the order its schema writes them, each typed where the service reads it. */
  const bodyFields = (type: ts.Type, at: ts.Node): BodyField[] =>
    propertiesInWrittenOrder(checker, type).map((f) => {
      const optional = (f.flags & ts.SymbolFlags.Optional) !== 0;
      const fieldType = typeOf(f, at);
      return {
        name: f.name,
        optional,
        type: checker.typeToString(optional ? checker.getNonNullableType(fieldType) : fieldType, undefined, TYPE_FLAGS),
      };
    });

  /**
   * The body a method takes, by the name its declaration gives it (`VpcCreateRequest`), or by the
   * method's path when it is written generically (`z.input<C>` of a database engine's create); its
   * fields from the type as the service instantiates it. A body whose type is still generic (the
   * client's own `call`) is not one.
   */
  const bodyOf = (
    parameter: ts.Symbol,
    declared: ts.ParameterDeclaration | undefined,
    service: Service,
    method: string,
  ): string | undefined => {
    const type = typeOf(parameter, service.at);
    const reference = declared?.type && ts.isTypeReferenceNode(declared.type) ? declared.type : undefined;
    const named = reference && !reference.typeArguments ? reference.typeName : writtenArgument(declared?.type, service);
    if (!named && !(type.flags & ts.TypeFlags.Object)) return undefined;
    const name = named?.getText() ?? `${method} body`;
    if (!bodies.has(name)) {
      const symbol = named ? checker.getSymbolAtLocation(named) : undefined;
      const alias = symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      bodies.set(name, {
        name,
        description: alias ? docOf(alias, checker) : "",
        fields: bodyFields(type, service.at),
      });
    }
    return name;
  };

  /**
   * A body written with the service class's type parameter (`z.input<C>`) named by the schema the
   * service is declared with: `readonly mysql: EngineDatabases<typeof MysqlDatabaseCreateRequest>` gives
   * `MysqlDatabaseCreateRequest`.
   */
  const writtenArgument = (written: ts.TypeNode | undefined, service: Service): ts.EntityName | undefined => {
    const parameters = service.classDeclaration?.typeParameters ?? [];
    const index = parameters.findIndex((p) => written && new RegExp(`\\b${p.name.text}\\b`).test(written.getText()));
    const argument = index < 0 ? undefined : service.declaredAs?.typeArguments?.[index];
    return argument && ts.isTypeQueryNode(argument) ? argument.exprName : undefined;
  };

  /** A method's signature as its declaration writes it: `(vpcId: number, body: VpcUpdateRequest, options?: CallOptions): Promise<Vpc>`. */
  const writtenSignature = (declaration: ts.MethodDeclaration, signature: ts.Signature): string => {
    const parameters = declaration.parameters.map((p) => {
      const optional = p.questionToken || p.initializer ? "?" : "";
      return `${p.name.getText()}${optional}: ${p.type ? p.type.getText() : checker.typeToString(checker.getTypeAtLocation(p), undefined, TYPE_FLAGS)}`;
    });
    const typeParameters = declaration.typeParameters ? `<${declaration.typeParameters.map((t) => t.getText()).join(", ")}>` : "";
    const returns = declaration.type ? declaration.type.getText() : checker.typeToString(signature.getReturnType(), undefined, TYPE_FLAGS);
    return `${typeParameters}(${parameters.join(", ")}): ${returns}`;
  };

  /** A string literal property of a type (an endpoint declaration keeps its literals: `method: "GET"`). */
  const literal = (type: ts.Type, name: string, at: ts.Node): string | undefined => {
    const property = type.getProperty(name);
    const value = property && typeOf(property, at);
    return value?.isStringLiteral() ? value.value : undefined;
  };

  /** The endpoint declarations a method's body names (`VPC_ENDPOINTS.subnets.list`), in order, each once. */
  const endpointsIn = (declaration: ts.Node): Array<{ method: string; path: string; summary: string }> => {
    const found = new Map<string, { method: string; path: string; summary: string }>();
    const walk = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node)) {
        const type = checker.getTypeAtLocation(node);
        const [name, method, path, summary] = ["name", "method", "path", "summary"].map((key) => literal(type, key, node));
        if (name && method && path && summary) return void found.set(name, { method, path, summary });
        // A derived table's endpoint is named by its place in the table, not by a literal.
        if (method && path && summary) return void found.set(`${method} ${path}`, { method, path, summary });
      }
      ts.forEachChild(node, walk);
    };
    walk(declaration);
    return [...found.values()];
  };

  /** A method, or a property holding one: what `sdk/core/resource.ts` derives from an endpoint table. */
  const isCallable = (p: ts.Symbol, at: ts.Node) =>
    isMethod(p) || checker.getSignaturesOfType(typeOf(p, at), ts.SignatureKind.Call).length > 0;

  /** The schema a declaration's field names (`body: VpcCreateRequest` → `VpcCreateRequest`, `z.array(Region)` → `Region[]`). */
  const schemaName = (declared: ts.Type, field: string, at: ts.Node): string | undefined => {
    const property = declared.getProperty(field);
    const assignment = property?.valueDeclaration ?? property?.declarations?.[0];
    // A field a verb gives (`...WRITE.delete`: `response: typeof Empty`) is named by its type query.
    if (assignment && ts.isPropertySignature(assignment) && assignment.type && ts.isTypeQueryNode(assignment.type)) {
      return assignment.type.exprName.getText();
    }
    if (!property || !assignment || !ts.isPropertyAssignment(assignment)) return undefined;
    const text = assignment.initializer.getText();
    const array = /^z\.array\((\w+)\)$/.exec(text);
    return array ? `${array[1]}[]` : /^\w+$/.test(text) ? text : checker.typeToString(typeOf(property, at), undefined, TYPE_FLAGS);
  };

  /** What a derived method's signature is written from: the path's parameters, the body and answer by their schemas' names. */
  interface Written {
    names: string[];
    body?: string;
    /** The body schema's type, and its name's symbol when the body is written as a name. */
    bodyType?: ts.Type;
    bodySymbol?: ts.Symbol;
    response: string;
    paginated: boolean;
  }

  /** An entry of a table (`update: { ...WRITE.put, path, summary, body: VpcUpdateRequest, response: Vpc }`). */
  const tableEntry = (entry: ts.Expression): Written => {
    const declared = checker.getTypeAtLocation(entry);
    const pathType = declared.getProperty("path") && typeOf(declared.getProperty("path")!, entry);
    // A table written once for several engines has one path per engine (or a template of them); their parameters are the same.
    const written = pathType ? checker.typeToString(pathType.isUnion() ? pathType.types[0]! : pathType) : "";
    const bodyProperty = declared.getProperty("body");
    const bodyDeclaration = bodyProperty?.valueDeclaration ?? bodyProperty?.declarations?.[0];
    return {
      names: [...written.matchAll(/(?<!\$)\{([^}]+)\}/g)].map((x) => x[1]!),
      body: schemaName(declared, "body", entry),
      bodyType: bodyProperty && checker.getTypeOfSymbolAtLocation(bodyProperty, entry),
      bodySymbol:
        bodyDeclaration && ts.isPropertyAssignment(bodyDeclaration) ? checker.getSymbolAtLocation(bodyDeclaration.initializer) : undefined,
      response: schemaName(declared, "response", entry) ?? "unknown",
      paginated: declared.getProperty("paginated") !== undefined,
    };
  };

  /**
   * A verb of a `crud(read, write, path, id, response, { list: summary, create: [summary, body], … })`
   * group (`sdk/core/endpoint.ts`): the path and answer from the call's arguments, the body from the verb.
   */
  const crudVerb = (declaration: ts.Node, entry: ts.Expression): Written | undefined => {
    const call = declaration.parent?.parent;
    if (!ts.isPropertyAssignment(declaration) || !call || !ts.isCallExpression(call) || call.expression.getText() !== "crud")
      return undefined;
    const [path, id, response] = [2, 3, 4].map((i) => call.arguments[i]!);
    const text = (node: ts.Expression) => {
      const type = checker.getTypeAtLocation(node);
      return type.isStringLiteral() ? type.value : "";
    };
    const verb = declaration.name.getText();
    const item = verb === "list" || verb === "create" ? "" : `/{${text(id)}}`;
    const bodyNode = ts.isArrayLiteralExpression(entry) ? entry.elements[1] : undefined;
    return {
      names: [...`${text(path)}${item}`.matchAll(/(?<!\$)\{([^}]+)\}/g)].map((x) => x[1]!),
      ...(bodyNode
        ? { body: bodyNode.getText(), bodyType: checker.getTypeAtLocation(bodyNode), bodySymbol: checker.getSymbolAtLocation(bodyNode) }
        : {}),
      response: verb === "delete" ? "Empty" : /^\w+$/.test(response.getText()) ? response.getText() : "unknown",
      paginated: verb === "list",
    };
  };

  /**
   * A derived method's signature, written from its endpoint's declaration: the path's parameters
   * in order, the body by its schema's name, the options; `listAll` from its table's `list`.
   */
  const derivedSignature = (
    m: ts.Symbol,
    declaration: ts.Node,
    signature: ts.Signature,
    service: Service,
  ): { signature: string; body?: string } => {
    const entry = ts.isPropertyAssignment(declaration) ? declaration.initializer : undefined;
    const listed = m.name === "listAll" ? ENDPOINTS.find((e) => e.name === `${service.path}.list`) : undefined;
    if (!entry) {
      const item = listed ? service.items.get("list") : undefined;
      const params = [...(listed?.params ?? []).map((p) => `${p}: PathParam`), "options?: ListOptions"];
      return {
        signature: `(${params.join(", ")}): Promise<${item ?? checker.typeToString(signature.getReturnType(), undefined, TYPE_FLAGS)}[]>`,
      };
    }
    const { names, body, bodyType, bodySymbol: named, response, paginated } = crudVerb(declaration, entry) ?? tableEntry(entry);
    if (paginated) service.items.set(m.name, response);
    const params = [
      ...names.map((p) => `${p}: PathParam`),
      ...(body ? [`body: ${body}`] : []),
      paginated ? "options?: ListOptions" : "options?: CallOptions",
    ];
    const answer = paginated ? `Paginator<${response}>` : response === "Empty" ? "Promise<void>" : `Promise<${response}>`;
    if (body && bodyType && !bodies.has(body)) {
      // A schema imported from a sibling module (`sdk/rules/databases.ts`) is documented where it is declared.
      const alias = named && named.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(named) : named;
      const type = alias ? checker.getDeclaredTypeOfSymbol(alias) : bodyType;
      bodies.set(body, {
        name: body,
        description: alias ? docOf(alias, checker) : "",
        fields: bodyFields(type, entry),
      });
    }
    return { signature: `(${params.join(", ")}): ${answer}`, ...(body ? { body } : {}) };
  };

  /** `type` is a service at `path`: its methods here, each member that is a service of its own after it. */
  const visit = (path: string, type: ts.Type, description: string, at: ts.Node, declaredAs?: ts.TypeReferenceNode): void => {
    const classDeclaration =
      type.getSymbol()?.getDeclarations()?.find(ts.isClassDeclaration) ??
      type.aliasSymbol?.getDeclarations()?.find(ts.isTypeAliasDeclaration);
    const service: Service = { at, declaredAs, classDeclaration, path: path.replace(/^client\./, ""), items: new Map() };
    const members = publicMembers(type);
    const methods = members
      .filter((m) => isCallable(m, at))
      .map((m): MethodDoc => {
        const declaration = (m.valueDeclaration ?? m.declarations![0]!) as ts.Node;
        const signature = checker.getSignaturesOfType(typeOf(m, at), ts.SignatureKind.Call)[0]!;
        const own = ENDPOINTS.find((e) => e.name === `${path.replace(/^client\./, "")}.${m.name}`);
        const derived = !ts.isMethodDeclaration(declaration) && !ts.isMethodSignature(declaration);
        const found = derived ? [] : endpointsIn(declaration);
        const called = found.length || !own ? found : [own];
        const doc = docOf(m, checker) || (called.length === 1 ? called[0]!.summary : "");
        if (!doc) throw new Error(`${path}.${m.name} has no TSDoc and calls no one endpoint`);
        const written = derived ? derivedSignature(m, declaration, signature, service) : undefined;
        const index = signature.parameters.findIndex((p) => p.name === "body");
        const body = written
          ? written.body
          : index < 0
            ? undefined
            : bodyOf(signature.parameters[index]!, (declaration as ts.MethodDeclaration).parameters[index], service, `${path}.${m.name}`);
        return {
          name: m.name,
          signature: written?.signature ?? writtenSignature(declaration as ts.MethodDeclaration, signature),
          description: doc,
          endpoints: called.map((e) => `${e.method} ${e.path}`),
          ...(body ? { body } : {}),
        };
      });
    if (methods.length) {
      if (!description) throw new Error(`${path} has no TSDoc`);
      services.push({ path, description, methods });
    }
    for (const member of members.filter((m) => !isCallable(m, at))) {
      const memberType = typeOf(member, at);
      // A service or a group of services (`client.networking`): an object with members of its own.
      if (!(memberType.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) || !publicMembers(memberType).length) continue;
      const classSymbol = memberType.getSymbol();
      // A sub-resource a table derives is documented on its entry in the table (`/** `/vpcs/{vpcId}/subnets`. */ subnets: …`).
      const entry = member.valueDeclaration ?? member.declarations?.[0];
      const memberDescription =
        (entry && ts.isPropertyAssignment(entry) && docOf(member, checker)) ||
        (classSymbol && docOf(classSymbol, checker)) ||
        (memberType.aliasSymbol && docOf(memberType.aliasSymbol, checker)) ||
        docOf(member, checker);
      const memberDeclaration = member.valueDeclaration ?? member.declarations?.[0];
      const written = memberDeclaration && ts.isPropertyDeclaration(memberDeclaration) ? memberDeclaration.type : undefined;
      visit(`${path}.${member.name}`, memberType, memberDescription, at, written && ts.isTypeReferenceNode(written) ? written : undefined);
    }
  };

  const declaration = client.getDeclarations()![0]!;
  visit("client", checker.getDeclaredTypeOfSymbol(client), docOf(client, checker), declaration);
  return { services, bodies: [...bodies.values()].sort((a, b) => a.name.localeCompare(b.name)) };
}

/** The anchor GitHub gives a heading: `client.networking.firewalls` → `clientnetworkingfirewalls`. */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, "")
    .replace(/ /g, "-");

/** `docs/reference/client.md`: every service with its methods, then every request body with its fields. */
export function clientPage(header: string, { services, bodies }: ClientDocs): string {
  const service = (s: ServiceDoc): string[] => [
    `## ${s.path}`,
    "",
    s.description,
    "",
    "| method | endpoint | body | what it does |",
    "|---|---|---|---|",
    ...s.methods.map(
      (m) =>
        `| ${code(escape(`${m.name}${m.signature}`))} | ${m.endpoints.map((e) => code(e)).join("<br>")} | ${
          m.body ? `[${code(m.body)}](#${anchor(m.body)})` : ""
        } | ${escape(m.description)} |`,
    ),
    "",
  ];
  const body = (b: BodyDoc): string[] => [
    `### ${b.name}`,
    "",
    ...(b.description ? [b.description, ""] : []),
    "| field | type | required |",
    "|---|---|---|",
    ...b.fields.map((f) => `| ${code(f.name)} | ${code(escape(f.type))} | ${f.optional ? "" : "yes"} |`),
    "",
  ];
  return [
    header,
    "",
    "# The typed client",
    "",
    '`ComputeClient` calls every endpoint of the API v4 (`import { ComputeClient } from "pulumi-compute"`). The testing module\'s',
    "`stack.client` and `(await mocks.api()).client` are clients of their emulated account ([testing your program](../guides/testing.md),",
    "[changing an object by hand](../guides/changing-objects-by-hand.md)).",
    "",
    "**Bodies and answers are the wire's**: the API's JSON field for field, with its snake_case names (`allow_list`, `ssl_connection`,",
    "`compute_id`) and `null` where the API answers null. A program's resources take the same fields in camelCase (`allowList`); the",
    "client does not translate. Each body is checked against the sdk's schema before anything is sent: a field the API would refuse",
    "is a `ClientValidationError` naming it, and no request goes out.",
    "",
    "`list` iterates every page (`for await (const vpc of client.vpcs.list())`), `listAll` collects them; `options` of a call takes",
    "an abort `signal`, of a listing a `filter` and a page size. Call `close()` when done.",
    "",
    "| service | what it is |",
    "|---|---|",
    ...services.map((s) => `| [${code(s.path)}](#${anchor(s.path)}) | ${escape(firstSentence(s.description))} |`),
    "",
    ...services.flatMap(service),
    "## Request bodies",
    "",
    "The fields each body takes, as the wire names them.",
    "",
    ...bodies.flatMap(body),
  ]
    .join("\n")
    .replace(/\n+$/, "\n");
}
