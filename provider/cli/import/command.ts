/**
 * `pulumi-compute import`: reads an account through the sdk and writes a TypeScript program that
 * manages its objects (see `program.ts`), plus the project around it, then prints the next steps.
 * Bad input — a missing token, an API that cannot be read, a non-empty `--out`, an unknown
 * `--only` area, an invalid `--label-filter` — is refused with a clear message and exit code 1,
 * before anything is written. The token is read from the environment and written nowhere.
 */
import { ComputeClient } from "../../../sdk/client";
import { ApiError, ConnectionError, TimeoutError } from "../../../sdk/core/errors";
import { DEFAULT_API_URL, ENV_API_URL, ENV_TOKEN } from "../../engine/context";
import { RESOURCE_SPECS } from "../../generated/spec-table";
import { AREAS, AREA_NAMES, type Area, type AreaContents, type ReadOptions } from "./account";
import { buildProgram, renderProgram } from "./program";
import { outProblem, projectFiles, projectName, writeProject } from "./project-files";

export interface ImportOptions {
  /** API root including `/v4`; default `COMPUTE_API_URL`, else the public API. */
  apiUrl?: string;
  /** The environment variable holding the token; default `COMPUTE_TOKEN`. */
  tokenEnv?: string;
  /** Area names (`vpcs`, `domains`, …); default all. */
  only?: string[];
  /** Keeps the objects whose label (a domain's name, a reverse DNS name, `range-<address>`) matches; their children come along. */
  labelFilter?: string;
  /** Each domain's records as one `DomainRecordSet` instead of one `DomainRecord` each. */
  recordSets?: boolean;
  /** The project folder to create; it must not exist or be empty. */
  out: string;
  /** The stack the next steps name; default `dev`. */
  stack?: string;
}

export interface ImportResult {
  out: string;
  /** Resources written, by kind. */
  counts: Record<string, number>;
  notes: string[];
  ms: number;
}

/** A refusal of the user's input: printed as it is, exit code 1. */
export class ImportInputError extends Error {
  override name = "ImportInputError";
}

/** The areas `--only` names, in the program's order; unknown names refused, listing the valid ones. */
export function selectAreas(only: readonly string[] | undefined): Area[] {
  if (only === undefined || only.length === 0) return [...AREAS];
  const unknown = only.filter((name) => !AREA_NAMES.includes(name));
  if (unknown.length > 0) {
    throw new ImportInputError(
      `unknown --only area ${unknown.map((n) => JSON.stringify(n)).join(", ")}; valid areas: ${AREA_NAMES.join(", ")}`,
    );
  }
  return AREAS.filter((area) => only.includes(area.name));
}

/** Keeps top-level objects whose label matches, and the children of the kept ones. */
export function filterByLabel(contents: AreaContents, pattern: RegExp | undefined): AreaContents {
  if (!pattern) return contents;
  const kept = new Set<unknown>();
  const objects = contents.objects.filter((o) => {
    const keep = o.parent ? kept.has(o.parent.object) : pattern.test(o.label);
    if (keep) kept.add(o);
    return keep;
  });
  return { objects, notes: contents.notes };
}

/**
 * The areas' contents, read one area after another in the program's order: each sees what the
 * areas before it kept (after the label filter), so its objects reference theirs.
 */
export async function readAreas(
  client: ComputeClient,
  areas: readonly Area[],
  options: ReadOptions,
  pattern?: RegExp,
): Promise<AreaContents[]> {
  const contents: AreaContents[] = [];
  for (const area of areas)
    contents.push(
      filterByLabel(
        await area.read(
          client,
          options,
          contents.flatMap((c) => c.objects),
        ),
        pattern,
      ),
    );
  return contents;
}

/** What an sdk failure means for someone pointing the command at an account. */
function readFailure(error: unknown, apiUrl: string, tokenEnv: string): ImportInputError {
  if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
    return new ImportInputError(
      `the API at ${apiUrl} refused the token in ${tokenEnv} (HTTP ${error.status}); check the token and its scopes`,
    );
  }
  if (error instanceof ApiError && error.status === 404) {
    return new ImportInputError(`${apiUrl} does not look like the API root (HTTP 404 for ${error.method} ${error.path}); it ends in /v4`);
  }
  if (error instanceof ConnectionError || error instanceof TimeoutError) {
    return new ImportInputError(`cannot reach the API at ${apiUrl}: ${error.message}`);
  }
  return new ImportInputError(`cannot read the account at ${apiUrl}: ${error instanceof Error ? error.message : String(error)}`);
}

/** Checks the input, reads the account, writes the project. Throws `ImportInputError` on bad input. */
export async function importAccount(options: ImportOptions, env: NodeJS.ProcessEnv = process.env): Promise<ImportResult> {
  const started = Date.now();
  const areas = selectAreas(options.only);
  const tokenEnv = options.tokenEnv ?? ENV_TOKEN;
  const token = env[tokenEnv]?.trim();
  if (!token)
    throw new ImportInputError(`no API token: the environment variable ${tokenEnv} is empty or not set (or name another with --token-env)`);
  const apiUrl = options.apiUrl ?? env[ENV_API_URL] ?? DEFAULT_API_URL;
  if (!/^https?:\/\/\S+$/.test(apiUrl)) throw new ImportInputError(`--api-url ${JSON.stringify(apiUrl)} is not an http(s) URL`);
  let pattern: RegExp | undefined;
  try {
    pattern = options.labelFilter === undefined ? undefined : new RegExp(options.labelFilter);
  } catch (error) {
    throw new ImportInputError(`--label-filter: ${(error as Error).message}`);
  }
  const problem = outProblem(options.out);
  if (problem) throw new ImportInputError(problem);

  // Few retries: a wrong URL or a dead host should fail in seconds, not minutes.
  const client = new ComputeClient({ baseUrl: apiUrl, token, timeoutMs: 15_000, retry: { maxRetries: 2 } });
  let contents: AreaContents[];
  try {
    contents = await readAreas(client, areas, { recordSets: options.recordSets ?? false }, pattern);
  } catch (error) {
    throw readFailure(error, apiUrl, tokenEnv);
  } finally {
    await client.close();
  }
  const program = buildProgram(RESOURCE_SPECS, areas, contents);
  writeProject(options.out, projectFiles(projectName(options.out), renderProgram(program, apiUrl)));
  const counts: Record<string, number> = {};
  for (const resource of program.sections.flatMap((s) => s.resources)) counts[resource.kind] = (counts[resource.kind] ?? 0) + 1;
  return { out: options.out, counts, notes: program.notes, ms: Date.now() - started };
}

/** What to do next, for the person who ran the command. */
export function nextSteps(result: ImportResult, options: ImportOptions, env: NodeJS.ProcessEnv = process.env): string {
  const total = Object.values(result.counts).reduce((a, b) => a + b, 0);
  const kinds = Object.entries(result.counts)
    .map(([kind, n]) => `${n} ${kind}`)
    .join(", ");
  const apiUrl = options.apiUrl ?? env[ENV_API_URL];
  return [
    `Wrote ${total} resource(s) to ${result.out} in ${(result.ms / 1000).toFixed(1)} s${kinds ? `: ${kinds}` : ""}.`,
    ...result.notes.map((note) => `Left out: ${note}.`),
    "",
    "Next steps:",
    `  cd ${result.out}`,
    "  npm install",
    `  pulumi stack init ${options.stack ?? "dev"}`,
    ...(apiUrl && apiUrl !== DEFAULT_API_URL ? [`  pulumi config set compute:apiUrl ${apiUrl}`] : []),
    `  pulumi config set --secret compute:token <token>   # or keep ${ENV_TOKEN} set in the environment`,
    "  pulumi up        # adopts every object (adoptId) and changes nothing",
    "  pulumi preview --expect-no-changes",
  ].join("\n");
}

/** The command: exit 0 when the project was written, 1 on bad input or a failed read. */
export async function runImport(
  options: ImportOptions,
  io: { out: (text: string) => void; err: (text: string) => void } = { out: console.log, err: console.error },
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  try {
    const result = await importAccount(options, env);
    io.out(nextSteps(result, options, env));
    return 0;
  } catch (error) {
    io.err(`pulumi-compute import: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
