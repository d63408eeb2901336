/**
 * Outputs known once a create has finished (`provider/engine/known.ts`): the types programs compile
 * against drop their `null` (a snippet is type-checked against the package's entry, as a program
 * would be), and the engine keeps the promise at run time.
 */
import { REPO_ROOT } from "../../scripts/coverage/table";
import { typeCheck } from "../../scripts/docs/examples";
import { diff } from "../../provider/engine/engine";
import { outputText, unsetKnown } from "../../provider/engine/known";
import { RESOURCE_SPECS } from "../../provider/generated/spec-table";

jest.setTimeout(120_000);

/** Type errors of a program made of `body`, compiled as the docs' examples are (`compute` is the package). */
function typeErrors(body: string): string[] {
  return typeCheck(REPO_ROOT, [{ file: "known-outputs snippet", line: 1, lang: "ts", code: body, runnable: false }]);
}

const program = (target: string) => `
const db = new compute.MysqlDatabase("db", { label: "app-db", region: "us-iad", type: "g6-nanode-1", engineId: "mysql/8" });
const zone = new compute.Domain("zone", { domain: "example.com", type: "master", soaEmail: "admin@example.com" });
new compute.DomainRecord("db", { domainId: zone.id, type: "CNAME", name: "db", target: ${target} });
export const password = db.rootPassword.apply((p) => p.length);
`;

test("a database's primary host is a DomainRecord target as it is; a part that may be null is not", () => {
  expect(typeErrors(program("db.hosts.apply((h) => h.primary)"))).toEqual([]);
  // The check can fail: `secondary` is still nullable.
  expect(typeErrors(program("db.hosts.apply((h) => h.secondary)")).join("\n")).toMatch(/not assignable to type 'Input<string>'/);
});

const mysql = RESOURCE_SPECS.MysqlDatabase;
const active = { status: "active", hosts: { primary: "db.example.net", secondary: null }, rootUsername: "root", rootPassword: "pw" };

test("the engine names a known output the API left unset", () => {
  expect(unsetKnown(mysql, active)).toEqual([]);
  expect(unsetKnown(mysql, { ...active, hosts: { primary: null, secondary: null }, rootPassword: undefined })).toEqual([
    "hosts.primary",
    "rootPassword",
  ]);
});

test("a recorded object lacking a known output is updated (which settles it), unless it is broken and replaced", () => {
  const inputs = { label: "app-db", region: "us-iad", type: "g6-nanode-1", engineId: "mysql/8", clusterSize: 1, encrypted: false };
  const recorded = { ...inputs, ...active, engineId: "mysql/8" };
  expect(diff(mysql, recorded, inputs).changes).toBe(false);
  const provisioning = { ...recorded, status: "provisioning", hosts: { primary: null, secondary: null } };
  expect(diff(mysql, provisioning, inputs)).toMatchObject({ changes: true, replaces: [], diffs: ["hosts"] });
  expect(diff(mysql, { ...provisioning, status: "failed" }, inputs)).toMatchObject({
    changes: true,
    replaces: ["status"],
    diffs: ["status"],
  });
});

test("the docs say what is always set and when a value is null", () => {
  expect(outputText(mysql.outputs.hosts!)).toContain("`primary` is always set once created.");
  expect(outputText(mysql.outputs.hosts!)).toContain("`secondary`");
  expect(outputText(RESOURCE_SPECS.Image.outputs.vendor!)).toBe("The vendor of a public image. Null for private images, such as this one.");
});
