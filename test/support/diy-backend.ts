/**
 * A diy backend (`file://`) for the tests of one file: a temporary folder made before each test and
 * removed after it, `PULUMI_BACKEND_URL` put back as it was. Its stacks' checkpoints are what the
 * provider reads to say who holds an object (`provider/engine/ownership.ts`).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { StateEntry } from "../../provider/engine/ports";

export interface DiyBackend {
  /** The backend's folder, for the running test. */
  readonly dir: string;
  /** Writes the checkpoints of project `project`'s stacks, each holding the given resources; returns the backend's URL. */
  stacks(stacks: Record<string, StateEntry[]>, project?: string): string;
}

/** The backend of each test of the file, in a folder named after `prefix`. */
export function useDiyBackend(prefix: string): DiyBackend {
  let dir = "";
  const saved = process.env.PULUMI_BACKEND_URL;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    if (saved === undefined) delete process.env.PULUMI_BACKEND_URL;
    else process.env.PULUMI_BACKEND_URL = saved;
  });
  return {
    get dir() {
      return dir;
    },
    stacks(stacks, project = "app") {
      for (const [stack, resources] of Object.entries(stacks)) {
        const file = path.join(dir, ".pulumi/stacks", project, `${stack}.json`);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, JSON.stringify({ version: 3, checkpoint: { stack, latest: { resources } } }));
      }
      return `file://${dir}`;
    },
  };
}
