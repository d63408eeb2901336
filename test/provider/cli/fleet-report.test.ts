/** The fleet report's forms: text blocks and summary, exit codes, JSON shape, JUnit XML. */
import { fleetExitCode, fleetReport, formatFleetReport, junitXml, type StackResult } from "../../../provider/cli/fleet-report";

const result = (stack: string, status: StackResult["status"], extra: Partial<StackResult> = {}): StackResult => ({
  stack: `organization/${stack}`,
  project: stack.split("/")[0]!,
  status,
  resources: status === "clean" || status === "drift" ? 4 : 0,
  drift: [],
  seconds: 1.5,
  ...extra,
});
const drift = [{ resource: "www", type: "DomainRecord", field: "target", state: "10.0.0.1", cloud: "10.9.9.9" }];

describe("exit codes", () => {
  test("0 when nothing drifted, busy stacks included; 2 with drift; 1 with an error", () => {
    expect(fleetExitCode(fleetReport([result("a/prod", "clean"), result("b/prod", "busy", { message: "locked" })]))).toBe(0);
    expect(fleetExitCode(fleetReport([result("a/prod", "clean"), result("b/prod", "drift", { drift })]))).toBe(2);
    expect(fleetExitCode(fleetReport([result("a/prod", "drift", { drift }), result("b/prod", "error", { message: "boom" })]))).toBe(1);
  });
});

describe("text", () => {
  const report = fleetReport([
    result("network/prod", "clean"),
    result("web/prod", "drift", { drift }),
    result("api/prod", "busy", { message: "error: the stack is currently locked by 1 lock(s).\n  created by ci@r2" }),
    result("old/prod", "error", { message: "error: no project folder" }),
  ]);
  const text = formatFleetReport(report);

  test("one block per stack naming each drifted resource and field", () => {
    expect(text).toContain("No drift: 4 resources of stack organization/network/prod match the cloud.");
    expect(text).toContain("Drift in stack organization/web/prod: 1 field(s) of 1 resource(s) differ from state.");
    expect(text).toMatch(/DomainRecord www\s+target\s+"10\.0\.0\.1"\s+"10\.9\.9\.9"/);
    expect(text).toContain(
      "Stack organization/api/prod is busy (not checked):\n  error: the stack is currently locked by 1 lock(s).\n    created by ci@r2",
    );
    expect(text).toContain("Stack organization/old/prod could not be checked:\n  error: no project folder");
  });

  test("then a summary table and a count per status", () => {
    const lines = text.split("\n");
    const header = lines.findIndex((l) => /^stack\s+status\s+resources\s+drifted fields\s+seconds$/.test(l));
    expect(header).toBeGreaterThan(0);
    expect(lines.slice(header + 2, header + 6).map((l) => l.split(/\s+/).slice(0, 4))).toEqual([
      ["organization/network/prod", "clean", "4", "0"],
      ["organization/web/prod", "drift", "4", "1"],
      ["organization/api/prod", "busy", "0", "0"],
      ["organization/old/prod", "error", "0", "0"],
    ]);
    expect(lines[lines.length - 1]).toBe("4 stack(s): 1 without drift, 1 drifted, 1 busy, 1 failed.");
  });

  test("JSON: the stacks and a summary by status", () => {
    expect(JSON.parse(JSON.stringify(report))).toEqual({
      stacks: report.stacks,
      summary: { clean: 1, drift: 1, busy: 1, error: 1 },
    });
  });

  test("JUnit: one test case per stack; drift a failure, error an error, busy skipped", () => {
    const xml = junitXml(report, new Date("2026-11-25T03:00:00.123Z"));
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="pulumi-compute drift" tests="4" failures="1" errors="1" skipped="1" time="6.000">/,
    );
    expect(xml).toContain('timestamp="2026-11-25T03:00:00"');
    expect(xml.match(/<testcase /g)).toHaveLength(4);
    expect(xml).toContain('<testcase classname="network" name="organization/network/prod" time="1.500"/>');
    expect(xml).toMatch(
      /<testcase classname="web" name="organization\/web\/prod" time="1.500">\n\s+<failure type="drift" message="drift: 1 field\(s\) of 1 resource\(s\)">[^<]*DomainRecord www\s+target\s+&quot;10\.0\.0\.1&quot;/,
    );
    expect(xml).toMatch(
      /<testcase classname="api" name="organization\/api\/prod"[^>]*>\n\s+<skipped message="busy: [^"]*">error: the stack is currently locked/,
    );
    expect(xml).toMatch(
      /<testcase classname="old" name="organization\/old\/prod"[^>]*>\n\s+<error type="error" message="error: no project folder">/,
    );
  });

  test("JUnit escapes what XML cannot hold", () => {
    const xml = junitXml(fleetReport([result("a/prod", "error", { message: 'bad <"&"> \u001b[31mred' })]));
    expect(xml).toContain('message="bad &lt;&quot;&amp;&quot;&gt; [31mred"');
  });
});

describe("fields the program's ignoreChanges leaves to others", () => {
  const ignored = [{ resource: "net", type: "Vpc", field: "label", state: "app-net", cloud: "renamed-by-ops" }];

  test("a stack whose only differences are ignored is clean: exit 0, listed apart, no promise that up restores them", () => {
    const report = fleetReport([result("network/prod", "clean", { ignored })]);
    expect(fleetExitCode(report)).toBe(0);
    const text = formatFleetReport(report);
    expect(text).toContain(
      "No drift: 4 resources of stack organization/network/prod match the cloud, apart from fields the program ignores.",
    );
    expect(text).toContain(
      "Ignored: 1 field(s) of 1 resource(s) differ where the program's ignoreChanges leaves them to others (not drift).",
    );
    expect(text).toMatch(/Vpc net\s+label\s+"app-net"\s+"renamed-by-ops"/);
    expect(text).toContain("`pulumi up` leaves them as they are, with or without `--refresh`");
    expect(text).not.toContain("brings them back");
    expect(JSON.parse(JSON.stringify(report)).stacks[0]).toMatchObject({ status: "clean", drift: [], ignored });
    const xml = junitXml(report);
    expect(xml).toContain('failures="0"');
    expect(xml).toMatch(
      /<testcase classname="network" name="organization\/network\/prod" time="1.500">\n\s+<system-out>No drift: [^<]*Vpc net\s+label/,
    );
  });

  test("with drift beside them, the drift is reported as before and the ignored fields after it", () => {
    const report = fleetReport([result("web/prod", "drift", { drift, ignored })]);
    expect(fleetExitCode(report)).toBe(2);
    const text = formatFleetReport(report);
    const restore = text.indexOf("`pulumi up --refresh` brings them back to the program's values");
    expect(restore).toBeGreaterThan(text.indexOf("DomainRecord www"));
    expect(text.indexOf("Ignored: 1 field(s)")).toBeGreaterThan(restore);
    expect(junitXml(report)).toMatch(/<failure type="drift" message="drift: 1 field\(s\) of 1 resource\(s\)">/);
  });

  test("a clean stack with nothing ignored reads as before", () => {
    const report = fleetReport([result("network/prod", "clean")]);
    expect(formatFleetReport(report)).toContain("No drift: 4 resources of stack organization/network/prod match the cloud.\n");
    expect(junitXml(report)).toContain('<testcase classname="network" name="organization/network/prod" time="1.500"/>');
    expect(JSON.parse(JSON.stringify(report)).stacks[0]).not.toHaveProperty("ignored");
  });
});
