/**
 * The reference page of the policy pack, `docs/reference/compute-guardrails.md`, generated from
 * the policies themselves (`provider/policy/`): each policy's name, one line, default level, the
 * kinds it reads, what counts, and each setting with its type and default.
 */
import { COMPUTE_POLICIES, POLICY_PACK } from "../../provider/policy";
import type { ComputePolicy, Setting } from "../../provider/policy";
import { GUARDRAILS_PATH } from "../../provider/launch/plugins";
import { code, escape } from "./format";

/** `list of integers (1–65535)`, `integer (at least 1)`, `list of strings`. */
function typeOf(schema: Record<string, unknown>): string {
  const { minimum, maximum } = schema;
  const bounds =
    typeof minimum === "number" && typeof maximum === "number"
      ? ` (${minimum}–${maximum})`
      : typeof minimum === "number"
        ? ` (at least ${minimum})`
        : "";
  if (schema.type === "array") {
    const item = typeOf((schema.items ?? {}) as Record<string, unknown>);
    return `list of ${item.replace(/^(\w+)/, "$1s")}`;
  }
  return `${String(schema.type)}${bounds}`;
}

/** JSON with short lists on one line, as a person writes a config file. */
const json = (value: unknown): string =>
  JSON.stringify(value, null, 2).replace(/\[\s+([^[\]{}]*?)\s+\]/g, (_, inner: string) => `[${inner.split(/,\s+/).join(", ")}]`);

function settingRows(settings: Record<string, Setting>): string[] {
  const entries = Object.entries(settings);
  if (entries.length === 0) return ["No settings but `enforcementLevel`."];
  return [
    "| setting | type | default | meaning |",
    "|---|---|---|---|",
    ...entries.map(([key, s]) => `| ${code(key)} | ${typeOf(s.schema)} | ${code(JSON.stringify(s.default))} | ${escape(s.description)} |`),
  ];
}

function section(policy: ComputePolicy): string[] {
  const example = {
    [policy.name]: { enforcementLevel: "advisory", ...Object.fromEntries(Object.entries(policy.settings).map(([k, s]) => [k, s.default])) },
  };
  return [
    `## ${code(policy.name)}`,
    "",
    `${policy.description} Default level: **${policy.enforcementLevel}**. Reads ${policy.kinds.map(code).join(", ")}.`,
    "",
    `What violates it: ${policy.details}`,
    "",
    ...settingRows(policy.settings),
    "",
    "Its settings in a `--policy-pack-config` file (here lowered to advisory):",
    "",
    "```json",
    json(example),
    "```",
    "",
  ];
}

/** The page, as a fresh render. */
export function policyPage(header: string, policies: readonly ComputePolicy[] = COMPUTE_POLICIES): string {
  return [
    header,
    "",
    `# The ${code(POLICY_PACK)} policy pack`,
    "",
    `Guardrails for this package's resources, enforced at preview: \`pulumi preview --policy-pack ${GUARDRAILS_PATH}\` in a project`,
    "(the Automation API: `policyPacks`). How to enable, configure and extend it: [the policy guide](../guides/policy.md).",
    "Each policy reads a resource's inputs in the program's names, through either door (`pulumi-nodejs:dynamic/compute:<Kind>`,",
    "`compute:index:<Kind>`); a part unknown at preview is checked at `up`, before the resource is created or changed.",
    "",
    "| policy | default level | reads | what it requires |",
    "|---|---|---|---|",
    ...policies.map(
      (p) => `| [${code(p.name)}](#${p.name}) | ${p.enforcementLevel} | ${p.kinds.map(code).join(", ")} | ${escape(p.description)} |`,
    ),
    "",
    ...policies.flatMap(section),
  ].join("\n");
}
