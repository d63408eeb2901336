/**
 * The reference pages of docs/reference/ are generated from the resource specs and the data
 * functions (`scripts/docs/reference.ts`) and must be current: `npm run generate` rewrites them.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../scripts/coverage/table";
import { HEADER, REFERENCE_DIR, pageName, referencePages } from "../../scripts/docs/reference";
import { RESOURCE_SPECS } from "../../provider/generated/spec-table";
import * as compute from "../../provider";
import * as testing from "../../provider/testing";
import { ComputeClient } from "../../sdk/client";
import { ENDPOINTS } from "../../sdk/endpoints";

// The data functions are read with the TypeScript checker from the sources.
jest.setTimeout(300_000);

const pages = referencePages(REPO_ROOT);
const dir = path.join(REPO_ROOT, REFERENCE_DIR);

test.each(Object.keys(pages))("docs/reference/%s is the render of the code (run `npm run generate`)", (file) => {
  expect(fs.readFileSync(path.join(dir, file), "utf8")).toBe(pages[file]);
});

test("docs/reference/ holds the generated pages and nothing else", () => {
  expect(fs.readdirSync(dir).sort()).toEqual(Object.keys(pages).sort());
  for (const text of Object.values(pages)) expect(text.startsWith(HEADER)).toBe(true);
});

test("every resource has a page with its inputs, what replaces, drift, an example and adoption, linked from the index", () => {
  for (const spec of Object.values(RESOURCE_SPECS)) {
    const page = pages[`${pageName(spec.name)}.md`]!;
    for (const heading of ["## Example", "## Inputs", "## Outputs", "## What replaces", "## Drift", "## Adopting"])
      expect(page).toContain(heading);
    for (const [name, field] of Object.entries(spec.inputs)) {
      expect(page).toMatch(new RegExp(`\\| \`${name}\` \\| [^|]*${field.replaceOnChange ? "\\*\\*replaces\\*\\*" : "in place"}`));
    }
    expect(page).toContain(`new compute.${spec.name}(`);
    // The same example in Python and Go, each run under its language's mocks (test/sdks/).
    expect(page).toMatch(new RegExp(`\`\`\`python\\n[\\s\\S]*compute\\.${spec.name}\\(`));
    expect(page).toMatch(new RegExp(`\`\`\`go\\n[\\s\\S]*compute\\.New${spec.name}\\(ctx, `));
    expect(page).toMatch(/adoptId: [^\n]*/);
    expect(pages["README.md"]).toContain(`](${pageName(spec.name)}.md)`);
  }
});

test("every data function the package exports has a page with its TSDoc example, linked from the index", () => {
  const functions = Object.keys(compute).filter((name) => /^get[A-Z]\w*$/.test(name) && !name.endsWith("Output"));
  expect(functions.length).toBe(29);
  for (const name of functions) {
    const page = pages[`${pageName(name)}.md`]!;
    expect(page).toContain(`# ${name}\n`);
    expect(page).toMatch(new RegExp(`## Example\\n\\n\`\`\`ts\\n[\\s\\S]*compute\\.${name}Output\\(`));
    const snake = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    expect(page).toMatch(new RegExp(`\`\`\`python\\n[\\s\\S]*compute\\.${snake}_output\\(`));
    expect(page).toMatch(new RegExp(`\`\`\`go\\n[\\s\\S]*compute\\.(Get|Lookup)${name.slice(3)}Output\\(ctx, `));
    expect(pages["README.md"]).toContain(`](${pageName(name)}.md)`);
  }
});

test("the testing module has a page: every export, with its members and examples, linked from the index", () => {
  const page = pages["testing.md"]!;
  for (const name of Object.keys(testing)) expect(page).toContain(`\n## ${name}\n`);
  for (const member of ["up", "drift", "client", "control", "dispose", "seed?", "fallback?", "timeScale?"])
    expect(page).toContain(`| \`${member}\` |`);
  expect(page).toMatch(/```ts\nimport \{ emulatedStack \} from "pulumi-compute\/testing";/);
  expect(pages["README.md"]).toContain("](testing.md)");
});

test("a resource no input replaces says when it is replaced after all: only when asked", () => {
  for (const spec of Object.values(RESOURCE_SPECS)) {
    const page = pages[`${pageName(spec.name)}.md`]!;
    const replacing = Object.values(spec.inputs).some((f) => f.replaceOnChange);
    expect(page).not.toContain("Nothing replaces it");
    if (!replacing) {
      expect(page).toContain("No input replaces it: every input changes in place.");
      expect(page).toContain("It is replaced only when you ask for it (`pulumi up --replace`)");
      expect(page).not.toMatch(/^A replacement creates/m);
    }
  }
});

test("the typed client has a page: the wire's snake_case said at the top, every endpoint under a method, every method of a live client, each body's fields, linked from the index and the guides", async () => {
  const page = pages["client.md"]!;
  const top = page.slice(0, page.indexOf("\n## "));
  expect(top).toContain("snake_case");
  for (const e of ENDPOINTS) expect(page).toContain(`\`${e.method} ${e.path}\``);
  // Each service's rows name the methods of the object a live client has at that path, and no other.
  const client = new ComputeClient({ baseUrl: "http://127.0.0.1:9/v4", token: "unused" });
  try {
    const sections = [...page.matchAll(/^## (client[\w.]*)\n([\s\S]*?)(?=\n## )/gm)];
    expect(sections.length).toBeGreaterThan(20);
    for (const [, servicePath, text] of sections) {
      const service = servicePath!
        .split(".")
        .slice(1)
        .reduce<object>((at, key) => (at as Record<string, object>)[key]!, client);
      const listed = [...text!.matchAll(/^\| `(\w+)[<(]/gm)].map((m) => m[1]!).sort();
      // Its class's methods and those it inherits (the methods `sdk/core/resource.ts` derives from a table).
      const prototypes: object[] = [];
      for (
        let p = Object.getPrototypeOf(service) as object | null;
        p && p !== Object.prototype;
        p = Object.getPrototypeOf(p) as object | null
      )
        prototypes.push(p);
      const methods = (prototype: object) =>
        Object.getOwnPropertyNames(prototype).filter(
          (name) => name !== "constructor" && typeof Object.getOwnPropertyDescriptor(prototype, name)?.value === "function",
        );
      const live = [...new Set(prototypes.flatMap(methods))]
        // The client's own private helpers (TypeScript's `private`, invisible at run time).
        .filter((name) => servicePath !== "client" || !["area", "namespace"].includes(name))
        .sort();
      expect({ service: servicePath, methods: listed }).toEqual({ service: servicePath, methods: live });
    }
  } finally {
    await client.close();
  }
  // A body's fields as the wire names them.
  const body = page.slice(page.indexOf("\n### MysqlDatabaseCreateRequest\n"));
  for (const field of ["label", "region", "engine", "allow_list", "ssl_connection"]) expect(body).toContain(`| \`${field}\` |`);
  expect(page).toContain("[`FirewallRulesUpdateRequest`](#firewallrulesupdaterequest)");
  expect(pages["README.md"]).toContain("](client.md)");
  for (const guide of ["docs/guides/testing.md", "docs/guides/changing-objects-by-hand.md"])
    expect(fs.readFileSync(path.join(REPO_ROOT, guide), "utf8")).toContain("](../reference/client.md)");
});

test("a sub-resource a table derives is described by the TSDoc of its entry in the table, not by the derived type's", () => {
  const page = pages["client.md"]!;
  const description = (service: string) => page.split(`\n## ${service}\n\n`)[1]?.split("\n")[0];
  const nested = {
    "client.vpcs.subnets": "`/vpcs/{vpcId}/subnets`.",
    "client.domains.records": "`/domains/{domainId}/records`.",
    "client.networking.firewalls.devices": "`/networking/firewalls/{firewallId}/devices`.",
    "client.support.tickets.replies": "`/support/tickets/{ticketId}/replies`.",
    "client.regions.availability": "Availability of select plans per region.",
  };
  for (const [service, written] of Object.entries(nested))
    expect({ service, description: description(service) }).toEqual({ service, description: written });
});
