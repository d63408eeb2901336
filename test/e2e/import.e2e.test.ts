/**
 * `pulumi-compute import` on the user's path, through the real engine: an account made through
 * the API (test/support/import-account.ts) is imported into a new project; the packed package is
 * installed into it; `pulumi up` adopts every object without changing any (the API sees reads
 * only); `pulumi preview --expect-no-changes` passes, and passes again with every adoptId removed;
 * the instance comes with its interfaces, firewall and tags and without a root password, which only
 * a change deploying its image again asks for (refused at preview, naming it);
 * a change behind Pulumi's back makes `pulumi-compute drift` exit 2 naming the field. Imported
 * with `--record-sets`, the same zones adopt as one DomainRecordSet each, again without a write.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { ComputeClient } from "../../sdk/client";
import { REPO_ROOT } from "../support/engine";
import { APP_1_VPC_IPV4, seedImportAccount, type SeededAccount } from "../support/import-account";
import { UserShell, expectExit, useTarball } from "../support/user-shell";
import { packedPackage } from "../support/installed-project";
import { PLUGINS_YAML } from "../../provider/launch/plugins";

jest.setTimeout(900_000);

let base: string;
let project: string;
let user: UserShell;
let emulator: RunningEmulator;
let client: ComputeClient;
let seeded: SeededAccount;
let tarball: string;

beforeAll(async () => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "pc-import-"));
  user = new UserShell(base);
  tarball = await packedPackage();
  await user.init();
  // Emulated time runs 300 times faster: databases are up, and the image captured, in seconds.
  emulator = await startEmulator({ port: 0, timeScale: 300 });
  client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
  seeded = await seedImportAccount(emulator, client);
  project = path.join(base, "infra");
});

afterAll(async () => {
  await client?.close();
  await emulator?.close();
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

const writes = () => emulator.control.listRequests().filter((r) => r.method !== "GET");

test("import, install, up adopts everything and changes nothing, previews clean with and without adoptId, drift exits 2", async () => {
  // The import, as a user runs it, the token in the environment.
  emulator.control.clearRequests();
  const cli = `node ${path.join(REPO_ROOT, "dist/provider/cli/main.js")}`;
  const started = Date.now();
  const imported = await user.run(`${cli} import --api-url ${emulator.url} --out infra --stack dev`, base, {
    env: { COMPUTE_TOKEN: emulator.token },
  });
  const importMs = Date.now() - started;
  expectExit(imported, 0);
  const reads = emulator.control.listRequests();
  expect(reads.filter((r) => r.method !== "GET")).toEqual([]);
  // One listing per area, plus the records of each domain, the devices of each firewall (read again
  // for the instances' firewalls) and the profile of each instance deployed from an image.
  expect(reads.length).toBeLessThanOrEqual(20);
  // VPCs and subnets, firewalls and devices, the instance, the range, the reverse name, domains and records, databases, the image.
  const total = 2 + 3 + 2 + 4 + 1 + 1 + 1 + 3 + seeded.records + 2 + 1;
  expect(imported.out).toContain(`Wrote ${total} resource(s) to infra`);
  expect(imported.out).toMatch(/Next steps:\n {2}cd infra\n {2}npm install\n {2}pulumi stack init dev\n/);
  expect(fs.readdirSync(project).sort()).toEqual(["Pulumi.yaml", "index.ts", "package.json", "tsconfig.json"]);
  // The project declares the package's launcher: its previews are exact on any Pulumi.
  expect(fs.readFileSync(path.join(project, "Pulumi.yaml"), "utf8")).toContain(PLUGINS_YAML);
  for (const file of fs.readdirSync(project)) expect(fs.readFileSync(path.join(project, file), "utf8")).not.toContain(emulator.token);
  const index = fs.readFileSync(path.join(project, "index.ts"), "utf8");
  expect(index.match(/adoptId: /g)).toHaveLength(total);
  // The instance with its firewall, interfaces and tags, and no root password.
  expect(index).toMatch(/new compute\.Instance\("app-1", \{[^}]*tags: \["app", "prod"\],\n\s*firewallId: webFw\.id,/);
  expect(index).toContain(`{ purpose: "vpc", subnetId: appNetWeb.id, ipv4: { vpc: "${APP_1_VPC_IPV4}" } }`);
  expect(index).not.toMatch(/rootPass/);
  console.log(`import: ${total} objects, ${reads.length} requests, ${importMs} ms (with the CLI's start)`);

  useTarball(project, tarball);
  await user.npmInstall(project);
  const pulumi = async (args: string, code: number | "fails" = 0) => {
    const result = await user.run(`pulumi ${args}`, project, { timeoutMs: 600_000 });
    expectExit(result, code);
    return result.out;
  };
  await pulumi("stack init dev");
  await pulumi(`config set compute:apiUrl ${emulator.url}`);
  await pulumi(`config set --secret compute:token ${emulator.token}`);

  // Right after the import, the preview plans the adoptions alone: no update, no replacement, no refusal.
  const first = await pulumi("preview");
  expect(first).toMatch(new RegExp(`\\+ ${total + 1} to create`));
  expect(first).not.toMatch(/to update|to replace|rootPass/);
  expect(writes()).toEqual([]);

  // The first up adopts: every resource is "created" in the stack, and the API sees no write.
  emulator.control.clearRequests();
  const upStarted = Date.now();
  const up = await pulumi("up --yes");
  console.log(`up: ${Date.now() - upStarted} ms, ${emulator.control.listRequests().length} requests`);
  expect(up).toMatch(new RegExp(`\\+ ${total + 1} created`)); // the stack resource too
  expect(up).not.toContain("preview support is off");
  expect(writes()).toEqual([]);

  await pulumi("preview --expect-no-changes");
  // The adopted instance has no root password in state either: none was given, none was read.
  const state = await pulumi("stack export --show-secrets");
  expect(JSON.parse(state).deployment.resources.find((r: { urn: string }) => r.urn.endsWith("::app-1")).outputs.rootPass).toBeUndefined();

  // A change that would deploy the image again (another region replaces the instance) needs the
  // password: refused at preview on the instance's row, naming rootPass, with nothing sent.
  const moved = index.replace(/(new compute\.Instance\("app-1", \{\n\s*label: "app-1",\n\s*)region: "us-iad"/, '$1region: "us-ord"');
  expect(moved).not.toBe(index);
  fs.writeFileSync(path.join(project, "index.ts"), moved);
  const refused = await pulumi("preview", "fails");
  expect(refused).toMatch(/Instance resource 'app-1'[\s\S]*rootPass: required when this up deploys the instance from its image/);
  expect(writes()).toEqual([]);
  fs.writeFileSync(path.join(project, "index.ts"), index);

  // Without adoptId the program means the same: nothing to change.
  const without = index.replace(/^\s*adoptId: .*\n/gm, "").replace(/, adoptId: "[^"]*"/g, "");
  expect(without).not.toMatch(/adoptId: /);
  fs.writeFileSync(path.join(project, "index.ts"), without);
  await pulumi("preview --expect-no-changes");
  expect(writes()).toEqual([]);

  // Behind Pulumi's back: the www record of example.com points elsewhere.
  const [zone] = seeded.domainIds;
  const www = (await client.domains.records.listAll(zone!)).find((r) => r.type === "A" && r.name === "www")!;
  await client.domains.records.update(zone!, www.id, { target: "203.0.113.99" });
  const drift = await user.run("node_modules/.bin/pulumi-compute drift", project, { timeoutMs: 600_000 });
  expectExit(drift, 2);
  expect(drift.out).toMatch(/DomainRecord example-com-a-www\s+target\s+"198\.51\.100\.10"\s+"203\.0\.113\.99"/);

  // --record-sets: the same zones as one DomainRecordSet each, in a second stack of the same
  // project. Its first up adopts the domains and takes every record over: still no write. The
  // objects move: `dev` lets go of them first (`stack rm --force` keeps them in the cloud), as a
  // second stack may never adopt what another stack manages.
  await pulumi("stack rm dev --force --yes");
  const setsImport = await user.run(`${cli} import --api-url ${emulator.url} --only domains --record-sets --out infra-sets`, base, {
    env: { COMPUTE_TOKEN: emulator.token },
  });
  expectExit(setsImport, 0);
  expect(setsImport.out).toContain("Wrote 6 resource(s) to infra-sets");
  const setsIndex = fs.readFileSync(path.join(base, "infra-sets", "index.ts"), "utf8");
  expect(setsIndex.match(/new compute\.DomainRecordSet\(/g)).toHaveLength(3);
  expect(setsIndex).not.toContain("new compute.DomainRecord(");
  fs.writeFileSync(path.join(project, "index.ts"), setsIndex);
  await pulumi("stack init sets");
  await pulumi(`config set compute:apiUrl ${emulator.url}`);
  await pulumi(`config set --secret compute:token ${emulator.token}`);
  emulator.control.clearRequests();
  const recordsBefore = (await Promise.all(seeded.domainIds.map((id) => client.domains.records.listAll(id)))).flat().length;
  const setsUp = await pulumi("up --yes");
  expect(setsUp).toMatch(/\+ 7 created/); // 3 domains, 3 sets, the stack
  expect(writes()).toEqual([]);
  await pulumi("preview --expect-no-changes");
  expect((await Promise.all(seeded.domainIds.map((id) => client.domains.records.listAll(id)))).flat()).toHaveLength(recordsBefore);
});
