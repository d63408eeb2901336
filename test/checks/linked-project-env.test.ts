/**
 * The e2e tests' linked projects (`linkedProject`, `linkedProjectEnv`) name their state backend in
 * `Pulumi.yaml`; the CLI takes `PULUMI_BACKEND_URL` over that, so a backend the shell running jest
 * exports (as `eval "$(npm run -s env)"` did, `file://~`, when none was set) took their stacks into
 * the user's own `~/.pulumi`, where the next run met them ("stack already exists").
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runProcess } from "../support/process";
import { linkedProject, linkedProjectEnv } from "../support/user-shell";

jest.setTimeout(60_000);

test("a linked project's stack goes to the backend its Pulumi.yaml names, whatever backend the shell exports", async () => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "pc-linked-env-"));
  const shells = path.join(base, "shell-backend");
  fs.mkdirSync(path.join(base, "state"));
  fs.mkdirSync(shells);
  const project = path.join(base, "project");
  fs.mkdirSync(project);
  linkedProject(project, { name: "linked", backendUrl: `file://${base}/state`, program: "" });
  const exported = process.env.PULUMI_BACKEND_URL;
  process.env.PULUMI_BACKEND_URL = `file://${shells}`;
  try {
    const env = linkedProjectEnv(base);
    const made = await runProcess("pulumi", ["stack", "init", "dev", "--non-interactive"], { cwd: project, env });
    expect(made.code).toBe(0);
    expect(fs.existsSync(path.join(base, "state/.pulumi/stacks/linked/dev.json"))).toBe(true);
    expect(fs.readdirSync(shells)).toEqual([]);
    // A test that names a backend of its own still gets it.
    expect(linkedProjectEnv(base, { PULUMI_BACKEND_URL: "file:///elsewhere" }).PULUMI_BACKEND_URL).toBe("file:///elsewhere");
  } finally {
    if (exported === undefined) delete process.env.PULUMI_BACKEND_URL;
    else process.env.PULUMI_BACKEND_URL = exported;
    fs.rmSync(base, { recursive: true, force: true });
  }
});
