/**
 * The fuzzer's `kill` step (`test/support/fuzz/run.ts`) through the real engine: an `up` killed
 * with every process it started while its creates are in flight, then what the product says
 * (`pulumi-compute drift` names the interrupted run and `npx pulumi-compute recover`; `recover`
 * says to run `pulumi up`), then that `up`, with every invariant of an `up` after it: one object
 * per declared resource, nothing twice, nothing lost, an empty preview after.
 */
import { runSteps, type Step } from "../support/fuzz";
import { fileFuzzWorld } from "../support/fuzz/file-world";

jest.setTimeout(300_000);

const world = fileFuzzWorld();

/** A VPC and a domain, created in parallel by the killed `up`, and a record the `up` after it makes. */
const KILLED_WHILE_CREATING: Step[] = [
  { op: "add", kind: "Vpc", name: "vpc1", props: { label: "fz-net-1", region: "us-iad", description: "" } },
  { op: "add", kind: "Domain", name: "zone1", props: { domain: "fz2.example", soaEmail: "admin@fuzz.example", ttlSec: 300 } },
  { op: "add", kind: "DomainRecord", name: "rec1", parent: "zone1", props: { type: "A", name: "h3", target: "192.0.2.4", ttlSec: 300 } },
  // Killed at the second of the three planned creates (50% in): the VPC's and the domain's, sent
  // together, have reached the emulator (each held there 1 s, landing after the kill).
  { op: "kill", at: 50 },
];

// Through the classes (the Automation API's CLI killed, the program in this process); the plugin's
// door runs kills in `npm run bench -- fuzz --kills=RATE` (bench/README.md).
test("an up killed while its creates are in flight is recovered as the product says, nothing twice", async () => {
  const said: string[] = [];
  const report = await runSteps(world(), KILLED_WHILE_CREATING, { door: "classes", log: (line) => said.push(line) });
  expect(report.violation).toBeUndefined();
  expect({ kills: report.kills, recoveries: report.recoveries }).toEqual({ kills: 1, recoveries: 1 });
  // Both creates had landed: recover hands both objects to the stack (no twin), and the up after it makes the record.
  expect(said).toHaveLength(1);
  // Sent together, the two creates are pending in either order.
  expect(said[0]).toMatch(
    /^kill at write 2 of 3: stack test has 2 pending operation\(s\) \((vpc1 creating, zone1|zone1 creating, vpc1) creating\) and a lock from an interrupted run: run `npx pulumi-compute recover` first; recover: /,
  );
  expect(said[0]).toMatch(/[:;] Vpc vpc1: adopted id \d+ \(VPC with label "fz-net-1"\)/);
  expect(said[0]).toMatch(/[:;] Domain zone1: adopted id \d+ \(domain with name "fz2.example"\)/);
});

// Found by the kill step, on a replacement: `recover` adopted the replacement's object beside the
// resource it replaces, under the same URN, and `pulumi stack import` refused the state
// ("duplicate resource … (not marked for deletion)"): recover exited 1 and the stack stayed
// pending. A create-before-delete (the record's type) and a delete-before-replace (the subnet's
// range, its label kept) killed while the new object's create is in flight.
test("an up killed while a replacement's create is in flight: recover adopts it in the replaced one's place, the next up converges", async () => {
  const said: string[] = [];
  const report = await runSteps(
    world(),
    [
      ...KILLED_WHILE_CREATING.slice(0, 3),
      { op: "add", kind: "VpcSubnet", name: "sub1", parent: "vpc1", props: { label: "sub-2", ipv4: "10.0.3.0/24" } },
      { op: "up" },
      { op: "changeReplace", name: "rec1", field: "type", props: { type: "AAAA", target: "2001:db8::5" }, deleteBeforeReplace: false },
      { op: "kill", at: 0 },
      { op: "changeReplace", name: "sub1", field: "ipv4", props: { ipv4: "10.0.4.0/24" }, deleteBeforeReplace: false },
      { op: "kill", at: 50 },
    ],
    { door: "classes", log: (line) => said.push(line) },
  );
  expect(report.violation).toBeUndefined();
  expect(said).toEqual([
    expect.stringMatching(
      /^kill at write 1 of 2: stack test has 1 pending operation\(s\) \(rec1 creating\) .*; recover: DomainRecord rec1: adopted id \d+/,
    ),
    expect.stringMatching(
      /^kill at write 2 of 2: stack test has 1 pending operation\(s\) \(sub1 creating\) .*; recover: VpcSubnet sub1: adopted id \d+/,
    ),
  ]);
});
