/**
 * The launcher's host says, once, which of its changes step aside (`provider/host/notice.ts`).
 * Without a resource row to carry it (the engine's `Log` cannot be used: status lines step aside
 * too), the warning is said as soon as the host adds its service; it must name every part that
 * stepped aside there, imports included, which used to decide after the warning was said.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LOSES } from "../../../provider/host/notice";
import { HOST, HostProcess, LAUNCHER } from "./real-host";

test("with no engine to log to, a protocol that imports cannot use gets one warning naming status lines and imports", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "host-notice-"));
  // Loaded before the launcher's preload (NODE_OPTIONS' requires come first): the host's own
  // protocol without ReadRequest.setProperties, which only the imports change uses.
  const reshape = path.join(dir, "reshape.js");
  fs.writeFileSync(
    reshape,
    `delete require(${JSON.stringify(path.join(path.dirname(HOST), "../../proto/provider_pb"))}).ReadRequest.prototype.setProperties;\n`,
  );
  // No engine address: the engine's Log cannot be used, so the warning goes to stderr.
  const host = await HostProcess.start([LAUNCHER], "", { ...process.env, NODE_OPTIONS: `--require ${reshape}` });
  try {
    for (let i = 0; i < 100 && !host.stderr().includes("These changes were written"); i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const said = host.stderr().replace(/\s+/g, " ");
    expect(said.split("pulumi-compute: ").length - 1).toBe(1);
    expect(said).toContain("- status lines:");
    expect(said).toContain(
      `- imports: the protocol has no ReadRequest.setProperties. ${LOSES.imports[0]!.toUpperCase()}${LOSES.imports.slice(1)}.`,
    );
  } finally {
    host.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
