/**
 * The changes to Pulumi's dynamic provider host, installed from the host's first line.
 *
 * This package's launcher (`plugins/pulumi-resource-pulumi-nodejs`, which a project declares in
 * its `Pulumi.yaml`) starts the host as Pulumi's launcher does, with this module preloaded
 * (`node -r`): the engine's Configure call comes before any resource's code is loaded. Here, in
 * that process only:
 *
 * - detailed diffs (`diff-response.ts`) are patched into the host's protocol at once, and so is the
 *   resource's `ignoreChanges` in each diff and update (`ignore-changes.ts`);
 * - when the host adds its provider service, each request is served in the context of its
 *   resource (`engine-log.ts`: lines on the resource's row), and previews are answered here
 *   (`preview.ts`), and a Read by id alone of this package's resources gets its provider (`import.ts`:
 *   Pulumi's `import` option);
 * - the host's provider service is served on this package's own unary gRPC (`transport.ts`, the
 *   plugin's transport) instead of grpc-js's server, which costs more CPU per call: the host's
 *   `bindAsync` of that server starts it and calls the host back with its port;
 * - each change checks every part of the host it uses first; one that finds a part missing leaves
 *   the host as it is, and the first resource row of the run gets one warning saying why and what
 *   the user loses (`notice.ts`);
 * - `PULUMI_DISABLE_PROVIDER_PREVIEW=true` (which the engine itself honours) leaves previews to
 *   Pulumi, without a warning.
 *
 * Loaded anywhere else (a test, a program, another script), it does nothing.
 */
import * as path from "node:path";
import { HOST_ENTRY } from "./entry";
import { installDetailedDiff } from "./diff-response";
import { installIgnoreChanges } from "./ignore-changes";
import { hostModules, missingMethod, type HostModules } from "./modules";
import { previewOffByEnvironment } from "../serve/config";
import { HostNotice, hostLog, markLaunched, warner } from "./notice";
import { hostUnpatchable, previewUnpatchable, withPreview, type HostService, type ServedKind } from "./preview";
import { unloggable, withRowLog } from "../serve/row-log";
import { REQUESTS_WITH_URN, engineModules } from "./engine-log";
import { hostReadUnpatchable, importUnpatchable, withImport } from "./import";
import { serveOnOwnTransport, transportUnusable } from "./transport";
import { saySlowStart, startQuickly, writeCompiledCode } from "../launch/quick-start";
import type { Serving } from "../serve/providers";

/**
 * Installs the changes when `hostFile` is Pulumi's dynamic provider host; returns whether it is.
 * `engineAddress` is the host's first argument; `servedKind` answers previews through the serving layer (`serve/providers.ts`).
 */
export function installHostChanges(
  hostFile: string | undefined,
  engineAddress: string | undefined,
  servedKind: ServedKind,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (!hostFile || !HOST_ENTRY.test(hostFile)) return false;
  markLaunched();
  // Before the host's first line loads `@pulumi/pulumi`: the host is `<package>/cmd/dynamic-provider/index.js`.
  const slowStart = startQuickly(path.resolve(hostFile, "../../../package.json"));
  let modules: HostModules;
  try {
    modules = hostModules(hostFile);
  } catch (error) {
    const notice = new HostNotice(warner(undefined), undefined);
    const why = `its protocol could not be loaded (${String(error).split("\n")[0]})`;
    for (const part of ["preview support", "detailed diffs", "ignoreChanges", "status lines", "imports", "lean gRPC serving"] as const)
      notice.stepAside(part, why);
    notice.now();
    return true;
  }
  const engine = engineModules(modules.engine);
  const log = hostLog(engine, engineAddress);
  saySlowStart(slowStart, (line) => (log ? log("info", line, "", false) : console.error(line)));
  const logWhy = unloggable(engine, engineAddress) ?? missingMethod(modules.proto, REQUESTS_WITH_URN);
  const notice = new HostNotice(warner(log), modules.version);
  notice.stepAside("detailed diffs", installDetailedDiff(modules.proto));
  notice.stepAside("ignoreChanges", installIgnoreChanges(modules.proto));
  notice.stepAside("status lines", logWhy);
  const previewOff = previewOffByEnvironment(env);
  const protocolWhy = previewOff ? undefined : previewUnpatchable(modules);
  const importProtocolWhy = importUnpatchable(modules);

  let served = false;
  const addService = modules.server?.prototype?.addService;
  if (typeof addService === "function") {
    modules.server!.prototype.addService = function (this: unknown, service: unknown, implementation: object) {
      if (service !== modules.service || served) return addService.call(this, service, implementation);
      served = true;
      const host = implementation as Record<string, unknown>;
      const previewWhy = previewOff ? undefined : (protocolWhy ?? hostUnpatchable(host));
      notice.stepAside("preview support", previewWhy);
      const transportWhy = transportUnusable(service, this);
      notice.stepAside("lean gRPC serving", transportWhy);
      // Each request in its resource's context: the row's lines, and the row the warning goes on.
      let wrapped: object = host;
      if (logWhy === undefined) wrapped = withRowLog(log!, host, notice.served);
      if (!previewOff && previewWhy === undefined) {
        wrapped = withPreview(modules, wrapped as HostService, servedKind);
      }
      const importWhy = importProtocolWhy ?? hostReadUnpatchable(host);
      notice.stepAside("imports", importWhy);
      if (importWhy === undefined) wrapped = withImport(modules, wrapped);
      // No resource row to carry the warning: said now, once every part above has said whether it steps aside.
      if (logWhy !== undefined) notice.now();
      // grpc-js gets the service too: it serves it when the bind is not the host's usual one.
      const added = addService.call(this, service, wrapped);
      if (transportWhy === undefined)
        serveOnOwnTransport(
          this as object,
          service as object,
          wrapped,
          (why) => {
            notice.stepAside("lean gRPC serving", why);
            notice.now();
          },
          // Our listen answers sooner than grpc-js's bind, before the start's first write of the
          // compile cache (`cacheCompiledCode`), and the engine may end the host once it has the port.
          writeCompiledCode,
        );
      return added;
    };
  }
  // The host adds its service while its module runs, before this tick ends; one it never added is a host reshaped.
  process.nextTick(() => {
    if (served) return;
    const why = "the host added no provider service this version knows";
    notice.stepAside("preview support", previewOff ? undefined : (protocolWhy ?? why));
    notice.stepAside("imports", importProtocolWhy ?? why);
    if (logWhy === undefined) notice.stepAside("status lines", why);
    notice.stepAside("lean gRPC serving", why);
    notice.now();
  });
  return true;
}

// Preloaded into the host (`node -r`), the host's file is the script being run and its first
// argument the engine's address (its `main(process.argv.slice(2))`). The serving layer loads at the first preview.
let serving: Serving | undefined;
const servedForPreview: ServedKind = (kind) => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use; the type comes with it
  serving ??= (require("../serve/providers") as typeof import("../serve/providers")).previewServing();
  return serving.kind(kind);
};
installHostChanges(process.argv[1], process.argv[2], servedForPreview);
