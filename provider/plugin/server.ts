/**
 * The provider plugin's gRPC service: Pulumi's ResourceProvider protocol, as `@pulumi/pulumi`
 * defines it, answered by the same engine that serves the dynamic resources. Every method is a
 * translation: the request's structs to the engine's values, one engine call, the engine's answer
 * to the response. What a resource does (check, the detailed diff, create exactly once, waits,
 * drift, preview's outputs, errors in the program's words) is the engine's and its spec's alone.
 *
 * Beyond Pulumi's stock Node server (`@pulumi/pulumi/provider`), which the package cannot use, it
 * reads the configuration variables at Configure (`compute:token`, `compute:apiUrl`,
 * `compute:pacing`, else the environment), declares preview support and previews as the dynamic
 * resources do (a create shows its inputs, an in-place update the engine's `previewUpdate`, and
 * neither sends a request), answers the detailed diff, and reads an object by id alone for
 * Pulumi's import. Resource types are `compute:index:<Kind>`, data functions `compute:index:<name>`.
 */
import { SDK_VERSION } from "../../sdk/version";
import { resolveCredentials } from "../engine/context";
import { writeDetailedDiff, type DiffResult } from "../engine/detailed-diff";
import { processTime, type ProviderTime } from "../engine/time";
import { TYPE_MODULE, kindOfType } from "../engine/type-tokens";
import { CONFIG_VARIABLES, previewOffByEnvironment, previewWanted } from "../serve/config";
import { servingContext } from "../serve/serving-context";
import { projectLanguage } from "../stores/project-language";
import { Serving, type Served } from "../serve/providers";
import { GRPC_STATUS, type GrpcFailure, type Message } from "../serve/grpc";
import { structsOf, type Protocol } from "./protocol";
import { plainValuesOf, structValues, unwrapSecret, valuesOf, type ReadableMessage, type Values } from "./struct-values";

import type * as provproto from "@pulumi/pulumi/proto/provider_pb";

type Callback<R> = (error: GrpcFailure | null, response?: R | null) => void;
type Call<Q> = { request: Q };

/** A method of the service, in grpc-js's form (the row log wraps it as it wraps the host's), with the class of its request. */
export type ServedMethod = ((call: Call<unknown>, callback: Callback<Message>) => void) & { requestType: ReadableMessage<unknown> };

/** What the server needs besides the protocol: the schema's text, and where lines without a resource's row go. */
export interface ServiceOptions {
  schema: () => string;
  print: (line: string) => void;
  /**
   * The account served whatever Configure says (`--mocks`: an emulated one, `mocks.ts`): its
   * configuration variables and the provider's clock.
   */
  account?: { config: Record<string, string>; time: ProviderTime };
}

/** What every handler of one provider process is handed. */
interface Session {
  protocol: Protocol;
  options: ServiceOptions;
  /** The configuration variables by their engine key: the account's when fixed, else what Configure read. */
  config: Map<string, string>;
  serving: Serving;
}

/** One method of the service: the class of its request, its handler, and the secret fields an init error's object has. */
interface Handler<Q> {
  requestType: (protocol: Protocol) => ReadableMessage<Q>;
  answer: (request: Q, session: Session) => Promise<Message>;
  secretsOf?: (request: Q, session: Session) => readonly string[];
}

const handler = <Q>(
  requestType: Handler<Q>["requestType"],
  answer: Handler<Q>["answer"],
  secretsOf?: Handler<Q>["secretsOf"],
): Handler<Q> => ({ requestType, answer, ...(secretsOf ? { secretsOf } : {}) });

/**
 * The ResourceProvider service's methods, each named as the protocol names it (`check`): adding a
 * method is one entry here and its handler below.
 */
const HANDLERS = {
  handshake: handler((p) => p.provider.ProviderHandshakeRequest, handshake),
  getPluginInfo: handler((p) => p.empty.Empty, getPluginInfo),
  getSchema: handler((p) => p.provider.GetSchemaRequest, getSchema),
  checkConfig: handler((p) => p.provider.CheckRequest, checkConfig),
  diffConfig: handler((p) => p.provider.DiffRequest, diffConfig),
  configure: handler((p) => p.provider.ConfigureRequest, configure),
  check: handler((p) => p.provider.CheckRequest, check),
  diff: handler((p) => p.provider.DiffRequest, diff),
  create: handler((p) => p.provider.CreateRequest, create, secretsOfResource),
  read: handler((p) => p.provider.ReadRequest, read),
  update: handler((p) => p.provider.UpdateRequest, update, secretsOfResource),
  delete: handler((p) => p.provider.DeleteRequest, remove),
  invoke: handler((p) => p.provider.InvokeRequest, invokeFunction),
  cancel: handler((p) => p.empty.Empty, nothing),
  attach: handler((p) => p.plugin.PluginAttach, nothing),
};

/** The ResourceProvider service's methods, bound to one provider process. */
export function providerService(protocol: Protocol, options: ServiceOptions): Record<string, ServedMethod> {
  const fixed = options.account?.config;
  const config = new Map<string, string>(Object.entries(fixed ?? {}));
  // A program of any language: messages advise in the project's (`Pulumi.yaml`'s runtime).
  const ctx = servingContext((key) => config.get(key), options.print, options.account?.time ?? processTime(), {
    language: () => projectLanguage(),
  });
  const session: Session = { protocol, options, config, serving: new Serving(() => ctx) };
  return Object.fromEntries(Object.entries(HANDLERS).map(([name, method]) => [name, served(method as Handler<unknown>, session)]));
}

/** A handler in grpc-js's form: runs it, answering its result or its error (a created object's init error with its details). */
function served<Q>({ requestType, answer, secretsOf }: Handler<Q>, session: Session): ServedMethod {
  const method = (call: Call<unknown>, callback: Callback<Message>) => {
    const request = call.request as Q;
    answer(request, session).then(
      (response) => callback(null, response),
      (error: unknown) => callback(failure(session.protocol, error, secretsOf?.(request, session) ?? [])),
    );
  };
  return Object.assign(method, { requestType: requestType(session.protocol) as ReadableMessage<unknown> });
}

/** Values as a Struct, the `secrets` among them marked secret. */
const toStruct = ({ protocol }: Session, values: Values, secrets: readonly string[] = []) =>
  structsOf(protocol).struct(structValues(values, secrets));

/** The served kind of a request's resource type (`compute:index:Vpc`). */
function resourceOf(request: { getType(): string; getUrn(): string }, { serving }: Session): Served {
  // The URN's type is the parent's and the resource's, `$`-joined, when it has a parent.
  const token = request.getType() || request.getUrn().split("::")[2]?.split("$").pop() || "";
  const kind = kindOfType(token);
  if (kind === undefined) throw new Error(`pulumi-resource-compute serves compute:index:<Kind> resources, not ${token}`);
  return serving.kind(kind);
}

function secretsOfResource(request: { getType(): string; getUrn(): string }, session: Session): readonly string[] {
  try {
    return resourceOf(request, session).secrets;
  } catch {
    return [];
  }
}

async function handshake(_request: provproto.ProviderHandshakeRequest, { protocol }: Session): Promise<Message> {
  return new protocol.provider.ProviderHandshakeResponse().setAcceptSecrets(false).setAcceptResources(false).setAcceptOutputs(false);
}

async function getPluginInfo(_request: unknown, { protocol }: Session): Promise<Message> {
  return new protocol.plugin.PluginInfo().setVersion(SDK_VERSION);
}

async function getSchema(request: provproto.GetSchemaRequest, { protocol, options }: Session): Promise<Message> {
  if (request.getSubpackageName()) throw new Error(`pulumi-resource-compute has no subpackage ${request.getSubpackageName()}`);
  return new protocol.provider.GetSchemaResponse().setSchema(options.schema());
}

async function checkConfig(request: provproto.CheckRequest, session: Session): Promise<Message> {
  const proto = session.protocol.provider;
  const news = valuesOf(request.getNews());
  const response = new proto.CheckResponse();
  const known = Object.keys(CONFIG_VARIABLES);
  const strangers = Object.keys(news).filter((key) => !known.includes(key) && key !== "version");
  response.setFailuresList(
    strangers.map((key) =>
      new proto.CheckFailure()
        .setProperty(key)
        .setReason(`compute:${key} is not a configuration variable of pulumi-compute; its variables: ${known.join(", ")}`),
    ),
  );
  // The token is kept secret in state even when the stack's config holds it in the clear.
  const secrets = Object.entries(CONFIG_VARIABLES).flatMap(([key, variable]) => (variable.secret ? [key] : []));
  return response.setInputs(toStruct(session, news, secrets));
}

async function diffConfig(request: provproto.DiffRequest, { protocol }: Session): Promise<Message> {
  const olds = valuesOf(request.getOlds());
  const news = valuesOf(request.getNews());
  const changed = Object.keys(CONFIG_VARIABLES).filter((key) => unwrapSecret(olds[key]) !== unwrapSecret(news[key]));
  const { DIFF_SOME, DIFF_NONE } = protocol.provider.DiffResponse.DiffChanges;
  // Other credentials or another URL change the provider in place: its resources stay as they are.
  return new protocol.provider.DiffResponse().setChanges(changed.length ? DIFF_SOME : DIFF_NONE).setDiffsList(changed);
}

async function configure(request: provproto.ConfigureRequest, { protocol, options, config }: Session): Promise<Message> {
  const response = new protocol.provider.ConfigureResponse().setAcceptsecrets(false).setAcceptresources(false);
  if (options.account) return response.setSupportspreview(true);
  const args = valuesOf(request.getArgs());
  // `variables` (`compute:config:token`) is what an engine older than `args` sends.
  const variables = request.getVariablesMap();
  config.clear();
  for (const [key, variable] of Object.entries(CONFIG_VARIABLES)) {
    const value = unwrapSecret(args[key]) ?? variables.get(`${TYPE_MODULE}:config:${key}`);
    if (value !== undefined && value !== null) config.set(variable.key, String(value));
  }
  // Preview support, as the dynamic door has it: off by `compute:previewSupport: false` or PULUMI_DISABLE_PROVIDER_PREVIEW.
  return response.setSupportspreview(previewWanted((key) => config.get(key)) && !previewOffByEnvironment());
}

async function check(request: provproto.CheckRequest, session: Session): Promise<Message> {
  const proto = session.protocol.provider;
  const { methods, secrets } = resourceOf(request, session);
  const news = plainValuesOf(request.getNews());
  const result = await methods.check(plainValuesOf(request.getOlds()), news);
  const response = new proto.CheckResponse().setInputs(toStruct(session, (result.inputs as Values | undefined) ?? news, secrets));
  return response.setFailuresList((result.failures ?? []).map((f) => new proto.CheckFailure().setProperty(f.property).setReason(f.reason)));
}

async function diff(request: provproto.DiffRequest, session: Session): Promise<Message> {
  const proto = session.protocol.provider;
  const { methods } = resourceOf(request, session);
  // The resource's ignoreChanges, which the engine sends for the provider to leave out of its diff.
  const ignoreChanges = request.getIgnorechangesList();
  const result = (await methods.diff(
    request.getId(),
    plainValuesOf(request.getOlds()),
    plainValuesOf(request.getNews()),
    ignoreChanges,
  )) as DiffResult;
  const { DIFF_SOME, DIFF_NONE } = proto.DiffResponse.DiffChanges;
  const response = new proto.DiffResponse()
    .setChanges(result.changes ? DIFF_SOME : DIFF_NONE)
    .setReplacesList(result.replaces ?? [])
    .setDeletebeforereplace(result.deleteBeforeReplace ?? false);
  writeDetailedDiff(response, result, {
    PropertyDiff: proto.PropertyDiff,
    kinds: proto.PropertyDiff.Kind as unknown as Record<string, number>,
  });
  return response;
}

async function create(request: provproto.CreateRequest, session: Session): Promise<Message> {
  const { create, secrets } = resourceOf(request, session);
  const inputs = plainValuesOf(request.getProperties());
  const created = await create(withCustomTimeout(inputs, "create", request.getTimeout()), request.getPreview());
  const response = new session.protocol.provider.CreateResponse().setProperties(
    toStruct(session, ownTimeouts(created.outs, inputs), secrets),
  );
  return created.id === undefined ? response : response.setId(created.id);
}

async function read(request: provproto.ReadRequest, session: Session): Promise<Message> {
  const { methods, secrets } = resourceOf(request, session);
  // Nothing recorded (Pulumi's import by id): the engine answers the inputs that manage the object as it is.
  const read = await methods.read(request.getId(), plainValuesOf(request.getProperties()), plainValuesOf(request.getInputs()));
  const response = new session.protocol.provider.ReadResponse();
  // No id: the object is gone, and a refresh drops it from state (an import fails: no such object).
  if (!read.id) return response;
  response.setId(read.id).setProperties(toStruct(session, (read.props as Values | undefined) ?? {}, secrets));
  // The recorded inputs as the API now holds them (`refreshedInputs`): `ignoreChanges` keeps a change made by hand.
  return read.inputs ? response.setInputs(toStruct(session, read.inputs as Values, secrets)) : response;
}

async function update(request: provproto.UpdateRequest, session: Session): Promise<Message> {
  const { update, secrets } = resourceOf(request, session);
  const olds = plainValuesOf(request.getOlds());
  const news = plainValuesOf(request.getNews());
  const timed = withCustomTimeout(news, "update", request.getTimeout());
  // The resource's ignoreChanges: the update sends nothing at those paths, as its diff planned.
  const updated = await update(request.getId(), olds, timed, request.getPreview(), request.getIgnorechangesList());
  return new session.protocol.provider.UpdateResponse().setProperties(toStruct(session, ownTimeouts(updated.outs, news), secrets));
}

/** `delete`, a word a function cannot be named. */
async function remove(request: provproto.DeleteRequest, session: Session): Promise<Message> {
  const { methods } = resourceOf(request, session);
  await methods.delete(request.getId(), withCustomTimeout(plainValuesOf(request.getProperties()), "delete", request.getTimeout()));
  return new session.protocol.empty.Empty();
}

async function invokeFunction(request: provproto.InvokeRequest, session: Session): Promise<Message> {
  const name = kindOfType(request.getTok());
  if (name === undefined) throw new Error(`pulumi-resource-compute serves compute:index:<function> functions, not ${request.getTok()}`);
  const { token, apiUrl } = resolveCredentials((key) => session.config.get(key));
  // The data functions' table, loaded at the first Invoke: a run of resources alone never needs it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded when first needed
  const { invoke } = require("./functions") as typeof import("./functions");
  const { result, secrets } = await invoke(name, plainValuesOf(request.getArgs()), { token, apiUrl });
  return new session.protocol.provider.InvokeResponse().setReturn(toStruct(session, result, secrets));
}

/** Cancel and Attach: nothing to do, answered empty. */
async function nothing(_request: unknown, { protocol }: Session): Promise<Message> {
  return new protocol.empty.Empty();
}

/**
 * Pulumi's `customTimeouts` as the engine's `timeouts` input of one operation: the engine sends the
 * option in each create, update and delete request (seconds; 0 when the program sets none), and it
 * overrides the program's `timeouts` for that operation, as the option does for Pulumi's own providers.
 */
function withCustomTimeout(values: Values, op: "create" | "update" | "delete", seconds: number): Values {
  if (!(seconds > 0)) return values;
  const own = values.timeouts !== null && typeof values.timeouts === "object" ? (values.timeouts as Values) : {};
  return { ...values, timeouts: { ...own, [op]: `${Math.ceil(seconds)}s` } };
}

/** Outputs recording the program's own `timeouts` input (or none), never the operation's `customTimeouts`. */
function ownTimeouts(outs: Values, given: Values): Values {
  const { timeouts: _sent, ...rest } = outs;
  return given.timeouts === undefined ? rest : { ...rest, timeouts: given.timeouts };
}

/** A failure that carries an object the API did create (the engine's `ResourceInitError`): Pulumi keeps it in state. */
interface InitFailure {
  message: string;
  id: string;
  properties: Values;
  reasons?: string[];
}
const isInitFailure = (error: unknown): error is InitFailure =>
  error instanceof Error && typeof (error as Partial<InitFailure>).id === "string" && (error as Partial<InitFailure>).id !== "";

/**
 * An error as gRPC answers it. A failure after the API created the object (an init error: it did
 * not become ready, a record set applied only in part) carries Pulumi's `ErrorResourceInitFailed`
 * with the object's id and properties, so the engine keeps it in state with the error.
 */
function failure(protocol: Protocol, error: unknown, secrets: readonly string[]): GrpcFailure {
  const message = error instanceof Error ? error.message : String(error);
  if (!isInitFailure(error)) return { code: GRPC_STATUS.UNKNOWN, details: message };
  const detail = new protocol.provider.ErrorResourceInitFailed()
    .setId(error.id)
    .setProperties(protocol.struct.Struct.fromJavaScript(structValues(error.properties, secrets)))
    .setReasonsList(error.reasons ?? [message]);
  const details = new protocol.any.Any();
  details.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
  const status = new protocol.status.Status();
  status.setCode(GRPC_STATUS.UNKNOWN);
  status.setMessage(message);
  status.addDetails(details);
  return { code: GRPC_STATUS.UNKNOWN, details: message, statusDetails: status.serializeBinary() };
}
