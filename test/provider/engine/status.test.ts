/**
 * The words of a resource's row status (`provider/engine/status.ts`): what a wait is for and how
 * long it has been, first (the row is cut to the terminal's width), its end said as done, and an
 * upload's share that agrees with its byte counts.
 */
import { paceText, retryText, uploadText, waitReporter, waitedText, waitingText, type StatusWait } from "../../../provider/engine/status";

const database: StatusWait = { what: "MySQL database 28000 (my-db)", until: "active", usual: "15–30 min at real speed" };
const MB = 1048576;

describe("waits", () => {
  test("a wait says what it waits for and its elapsed time first, then the status and the usual duration", () => {
    const text = waitingText(database, "provisioning", 130_000);
    expect(text).toBe("waiting for active, 2m10s so far: provisioning (usually 15–30 min at real speed)");
    // What a 40-column Info cell keeps still says what is awaited and for how long.
    expect(text.slice(0, 40)).toContain("2m10s so far");
    expect(waitingText({ what: "image 12", until: "available" }, "pending", 4_000)).toBe("waiting for available, 4s so far: pending");
  });

  test("a wait that has ended says that it is done, never 'active, waiting for active'", () => {
    expect(waitedText("active", 738_000)).toBe("active after 12m18s; done waiting");
    const said: Array<[string, string]> = [];
    const report = waitReporter(
      database,
      (status) => status === "active",
      (text, about) => said.push([about, text]),
    );
    report("provisioning", 0);
    report("provisioning", 10_000); // the same status within 30 s: nothing new to say
    report("provisioning", 31_000);
    report("active", 618_000);
    expect(said).toEqual([
      [database.what, "waiting for active, 0s so far: provisioning (usually 15–30 min at real speed)"],
      [database.what, "waiting for active, 31s so far: provisioning (usually 15–30 min at real speed)"],
      [database.what, "active after 10m18s; done waiting"],
    ]);
    expect(said.some(([, text]) => /active.*waiting for active/.test(text))).toBe(false);
  });

  test("a wait over at its first look says nothing", () => {
    const said: string[] = [];
    const report = waitReporter(
      database,
      (status) => status === "active",
      (text) => said.push(text),
    );
    report("active", 0);
    expect(said).toEqual([]);
  });

  test("a change of status is said at once", () => {
    const said: string[] = [];
    const report = waitReporter(
      { what: "image 12", until: "available" },
      (s) => s === "available",
      (text) => said.push(text),
    );
    report("pending_upload", 0);
    report("creating", 2_000);
    report("available", 4_000);
    expect(said).toEqual([
      "waiting for available, 0s so far: pending_upload",
      "waiting for available, 2s so far: creating",
      "available after 4s; done waiting",
    ]);
  });
});

describe("uploads", () => {
  /** The share a reader computes from the byte counts shown. */
  const shownShare = (text: string): { sent: string; total: string; shown: number; said: number } => {
    const [, sent, total, said] = /uploaded ([\d.]+) [KM]B of ([\d.]+) [KM]B \((\d+)%\)/.exec(text)!;
    return { sent: sent!, total: total!, shown: (Number(sent) / Number(total)) * 100, said: Number(said) };
  };

  test("the share is the bytes' own, not a step of ten", () => {
    expect(uploadText(5 * MB, 8 * MB)).toBe("uploaded 5.0 MB of 8.0 MB (62%)");
  });

  test("all of the file is said only of a finished upload", () => {
    expect(uploadText(8 * MB - 40_000, 8 * MB)).toBe("uploaded 7.9 MB of 8.0 MB (99%)");
    expect(uploadText(8 * MB, 8 * MB)).toBe("uploaded 8.0 MB of 8.0 MB (100%)");
    expect(uploadText(8_500, 8_500)).toBe("uploaded 9 KB of 9 KB (100%)");
    expect(uploadText(8_000, 8_500)).toBe("uploaded 7 KB of 9 KB (94%)");
    expect(uploadText(0, 0)).toBe("uploaded 0 KB of 0 KB (100%)");
  });

  test("the share and the byte counts agree at every point of a file", () => {
    for (const total of [3 * MB + 12_345, 8 * MB, 256 * MB, 700_000]) {
      for (let sent = 0; sent <= total; sent += Math.ceil(total / 97)) {
        const text = uploadText(sent, total);
        const { sent: sentShown, total: totalShown, shown, said } = shownShare(text);
        // Within the rounding of the two numbers shown (a tenth of a MB, or a KB, each).
        const slack = 2 * (total < MB ? 1024 / total : (0.1 * MB) / total) * 100 + 1;
        expect(Math.abs(shown - said)).toBeLessThanOrEqual(slack);
        if (sent < total) expect({ said, sentShown }).not.toEqual({ said: 100, sentShown: totalShown });
        if (sent < total) expect(said).toBeLessThan(100);
        if (sent < total) expect(sentShown).not.toBe(totalShown);
      }
    }
  });
});

test("retries and pacing say what is held and for how long", () => {
  expect(retryText({ attempt: 1, delayMs: 180, reason: "server error (5xx)", method: "GET", path: "/vpcs/12" })).toBe(
    "retrying GET /vpcs/12 in 180 ms (attempt 2): server error (5xx)",
  );
  expect(paceText({ method: "POST", path: "/vpcs", waitMs: 42_000 })).toBe("waiting 42s for the API's rate limit before POST /vpcs");
  expect(paceText({ method: "GET", path: "/regions", waitMs: 250 })).toBe("waiting 250 ms for the API's rate limit before GET /regions");
});
