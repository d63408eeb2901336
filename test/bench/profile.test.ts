/**
 * `scale --profile` reads the provider processes' profiles by the parts of a call (`CALL_PARTS`).
 * It profiles a provider process through `NODE_OPTIONS`, which the engine hands to
 * the plugins it starts. The variants' folders have spaces ("DomainRecord (plugin)"): unquoted, Node
 * split the options there, and the plugin's profile was never written.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { CALL_PARTS, nodeOptionQuoted, nodeSplit, sampleCapMs } from "../../bench/profile";

describe("nodeOptionQuoted", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "node-options-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("passes a folder with spaces and quotes whole to --cpu-prof-dir and --require", () => {
    const folder = path.join(dir, 'DomainRecord (plugin) "x"', "host");
    const preload = path.join(dir, "pre load.js");
    writeFileSync(preload, 'process.stdout.write("preloaded ");\n');
    const out = execFileSync(process.execPath, ["-e", 'process.stdout.write("ran")'], {
      env: { ...process.env, NODE_OPTIONS: `--cpu-prof --cpu-prof-dir ${nodeOptionQuoted(folder)} --require ${nodeOptionQuoted(preload)}` },
      encoding: "utf8",
    });
    expect(out).toBe("preloaded ran");
    expect(readdirSync(folder).filter((f) => f.endsWith(".cpuprofile"))).toHaveLength(1);
  });
});

describe("nodeSplit by the parts of a provider call (CALL_PARTS)", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "call-parts-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // A profile of one sample (1 ms) per leaf: node 1 is the root, each frame's children are listed.
  const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({
    id,
    callFrame: { functionName, url },
    children,
  });

  it("counts a Struct conversion with what it calls, Node's HTTP/2 as the protocol, and the sdk as the API call", () => {
    const struct = "file:///x/node_modules/google-protobuf/google/protobuf/struct_pb.js";
    const nodes = [
      frame(1, "(root)", "", [2, 5, 7, 9]),
      frame(2, "check", "file:///x/node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js", [3]),
      frame(3, "toJavaScript", struct, [4]),
      frame(4, "getFieldsMap", struct), // called by the conversion: the conversion's
      frame(5, "processTicksAndRejections", "node:internal/process/task_queues", [6]),
      frame(6, "onStreamRead", "node:internal/http2/core"), // Node's HTTP/2 with no caller of ours
      frame(7, "serializeBinary", struct, [8]), // the rest of that file: the protocol's
      frame(8, "writeBytes", "file:///x/node_modules/google-protobuf/google-protobuf.js"),
      frame(9, "request", "file:///x/node_modules/undici/lib/api/api-request.js"),
    ];
    const samples = [4, 6, 8, 9];
    const file = path.join(dir, "host.cpuprofile");
    writeFileSync(file, JSON.stringify({ nodes, samples, timeDeltas: [0, 1000, 1000, 1000, 1000] }));
    const split = nodeSplit(file, CALL_PARTS);
    expect(Object.fromEntries(split)).toEqual({
      "value conversion: protocol ↔ values": 1,
      "protocol: gRPC, HTTP/2, protobuf": 2,
      "the API call: sdk, undici": 1,
    });
  });

  it("counts a sample for at most twice the profile's usual interval: a wait for a core is not the function's CPU", () => {
    const nodes = [
      frame(1, "(root)", "", [2, 3]),
      frame(2, "normalizeEncoding", "node:internal/util"),
      frame(3, "request", "file:///x/node_modules/undici/lib/api/api-request.js"),
    ];
    // Five samples 1 ms apart, and one whose next sample came 248 ms later (the thread waited).
    const samples = [3, 3, 3, 3, 2, 3];
    const file = path.join(dir, "waited.cpuprofile");
    writeFileSync(file, JSON.stringify({ nodes, samples, timeDeltas: [0, 1000, 1000, 1000, 1000, 248_000, 1000] }));
    expect(sampleCapMs([0, 1000, 1000, 1000, 1000, 248_000, 1000])).toBe(2);
    expect(Object.fromEntries(nodeSplit(file, CALL_PARTS))).toEqual({ "the API call: sdk, undici": 5, "Node.js (event loop, I/O)": 2 });
  });
});
