/**
 * The independent zone-file parser for tests: `dns-zonefile` from npm. It is an ES module, which
 * jest's CommonJS module system cannot load without `--experimental-vm-modules` (and jest also
 * intercepts Node's own `require`), so the parse runs in a short-lived Node child process that
 * imports the package natively: the text goes in on stdin, the parse comes back as JSON.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";

export interface ParsedZone {
  $origin?: string;
  $ttl?: string;
  soa?: {
    name: string;
    mname: string;
    rname: string;
    serial: number;
    refresh: number;
    retry: number;
    expire: number;
    minimum: number;
    ttl?: number;
  };
  ns?: Array<{ name: string; host: string; ttl?: number }>;
  a?: Array<{ name: string; ip: string; ttl?: number }>;
  aaaa?: Array<{ name: string; ip: string; ttl?: number }>;
  cname?: Array<{ name: string; alias: string; ttl?: number }>;
  mx?: Array<{ name: string; preference: number; host: string; ttl?: number }>;
  txt?: Array<{ name: string; txt: string; ttl?: number }>;
  ptr?: Array<{ name: string; host: string; ttl?: number }>;
  srv?: Array<{ name: string; target: string; priority: number; weight: number; port: number; ttl?: number }>;
  caa?: Array<{ name: string; flags: number; tag: string; value: string; ttl?: number }>;
}

const REPO_ROOT = path.resolve(__dirname, "../..");
const SCRIPT = `import zonefile from "dns-zonefile";
let text = "";
process.stdin.setEncoding("utf8").on("data", (d) => (text += d)).on("end", () => process.stdout.write(JSON.stringify(zonefile.parse(text))));`;

/** Parses RFC 1035 master-file text with `dns-zonefile`. */
export function parseZoneFile(text: string): ParsedZone {
  const out = execFileSync(process.execPath, ["--input-type=module", "--eval", SCRIPT], {
    cwd: REPO_ROOT,
    input: text,
    encoding: "utf8",
    timeout: 20_000,
  });
  return JSON.parse(out) as ParsedZone;
}
