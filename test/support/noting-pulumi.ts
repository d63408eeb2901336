/**
 * A `pulumi` that notes the Pulumi home each run gets, then runs the real one (the setup's). The
 * CLI writes a log of every run under its home, and finds the user's home from the passwd entry,
 * not `$HOME`: a test cannot give it another user's home, but it can see which home each run had.
 */
import * as fs from "node:fs";
import * as path from "node:path";

export interface NotingPulumi {
  /** The folder holding it, as PULUMI_COMPUTE_ENGINE_BIN. */
  bin: string;
  /** PULUMI_HOME of each run so far, in order ("" when it was unset). */
  homes(): string[];
}

export function notingPulumi(dir: string): NotingPulumi {
  const real = path.join(process.env.PULUMI_COMPUTE_ENGINE_BIN!, "pulumi");
  const bin = path.join(dir, "root/bin");
  const noted = path.join(dir, "homes");
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(path.join(bin, "pulumi"), `#!/bin/sh\necho "home=$PULUMI_HOME" >> '${noted}'\nexec '${real}' "$@"\n`, { mode: 0o755 });
  // The plugins the setup put beside its pulumi (the language host, the launcher) are found beside this one too.
  for (const entry of fs.readdirSync(path.dirname(real)))
    if (entry !== "pulumi") fs.symlinkSync(path.join(path.dirname(real), entry), path.join(bin, entry));
  return {
    bin,
    homes: () =>
      fs.existsSync(noted)
        ? fs
            .readFileSync(noted, "utf8")
            .trim()
            .split("\n")
            .map((line) => line.slice("home=".length))
        : [],
  };
}
