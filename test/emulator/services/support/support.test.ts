/**
 * Support tickets in the emulator: every open rule (status, field, reason), states, replies,
 * attachments with allowed and refused extensions, provider-generated tickets, events, scopes.
 */
import { FormData, request } from "undici";
import { SUPPORT_REASONS } from "../../../../sdk/resources/support";
import { MAX_ATTACHMENT_BYTES } from "../../../../emulator/services/support/routes";
import { type TestEmulator, onlyError, startTestEmulator } from "../../helpers";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.control.reset());

const base = { summary: "Help", description: "Something is wrong" };

async function attach(ticketId: number, filename: string, bytes: Uint8Array): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append("file", new Blob([bytes]), filename);
  const response = await request(`${emu.url}/support/tickets/${ticketId}/attachments`, {
    method: "POST",
    headers: { authorization: `Bearer ${emu.token}` },
    body: form,
  });
  return { status: response.statusCode, body: await response.body.json() };
}

describe("open rules", () => {
  test("a plain ticket opens as new, naming no entity", async () => {
    const res = await emu.post("/support/tickets", base);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ summary: "Help", status: "new", entity: null, closed: null, closable: true, attachments: [] });
  });

  test.each([
    ["summary missing", { description: "x" }, "summary", "summary is required"],
    ["summary too long", { ...base, summary: "s".repeat(65) }, "summary", SUPPORT_REASONS.summaryLength],
    ["description too long", { ...base, description: "d".repeat(65001) }, "description", SUPPORT_REASONS.descriptionLength],
    ["two ID attributes", { ...base, compute_id: 1, vpc_id: 2 }, "vpc_id", SUPPORT_REASONS.oneIdAttribute],
    ["an ID attribute with managed_issue", { ...base, vpc_id: 2, managed_issue: true }, "managed_issue", SUPPORT_REASONS.managedWithId],
    ["vlan without region", { ...base, vlan: "backend" }, "region", SUPPORT_REASONS.vlanNeedsRegion],
    ["region without vlan", { ...base, region: "us-iad" }, "region", SUPPORT_REASONS.regionOnlyWithVlan],
  ])("%s → 400", async (_what, body, field, reason) => {
    const res = await emu.post("/support/tickets", body);
    expect(res.status).toBe(400);
    expect(onlyError(res)).toEqual({ field, reason });
  });

  test("an ID attribute must name an object of the account", async () => {
    const res = await emu.post("/support/tickets", { ...base, compute_id: 424242 });
    expect(res.status).toBe(400);
    expect(onlyError(res)).toEqual({ field: "compute_id", reason: SUPPORT_REASONS.entityNotFound("compute_id") });
  });

  test("an ID attribute naming an existing object becomes the ticket's entity", async () => {
    const vpc = await emu.post("/vpcs", { label: "net", region: "us-iad" });
    const res = await emu.post("/support/tickets", { ...base, vpc_id: vpc.body.id });
    expect(res.status).toBe(200);
    expect(res.body.entity).toEqual({ id: vpc.body.id, label: "net", type: "vpc", url: `/v4/vpcs/${vpc.body.id}` });
    const compute = emu.control.seedCompute({ label: "web-1", region: "us-iad", configs: [] });
    const other = await emu.post("/support/tickets", { ...base, compute_id: compute.id });
    expect(other.body.entity).toEqual({ id: compute.id, label: "web-1", type: "compute", url: `/v4/compute/instances/${compute.id}` });
  });

  test("managed_issue needs a Managed service on the account", async () => {
    const refused = await emu.post("/support/tickets", { ...base, managed_issue: true });
    expect(refused.status).toBe(400);
    expect(onlyError(refused)).toEqual({ field: "managed_issue", reason: SUPPORT_REASONS.managedNotEnabled });
    emu.control.support.setManaged({ managed: true });
    expect((await emu.post("/support/tickets", { ...base, managed_issue: true })).status).toBe(200);
  });

  test("a VLAN ticket needs a valid region", async () => {
    const bad = await emu.post("/support/tickets", { ...base, vlan: "backend", region: "nowhere-1" });
    expect(bad.status).toBe(400);
    expect(onlyError(bad)).toEqual({ field: "region", reason: "Region is not valid" });
    expect((await emu.post("/support/tickets", { ...base, vlan: "backend", region: "us-iad" })).status).toBe(200);
  });

  test("opening needs account:read_write; reading account:read_only", async () => {
    const { token } = emu.control.createToken({ scopes: ["account:read_only"] });
    expect((await emu.post("/support/tickets", base, { token })).status).toBe(401);
    expect((await emu.get("/support/tickets", { token })).status).toBe(200);
  });
});

describe("a ticket's life", () => {
  test("replies, staff answers, close, and the events of each step", async () => {
    const { body: ticket } = await emu.post("/support/tickets", base);
    const reply = await emu.post(`/support/tickets/${ticket.id}/replies`, { description: "More details" });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ description: "More details", from_compute: false });
    emu.control.support.staffReply(ticket.id, { description: "We are on it" });
    expect((await emu.get(`/support/tickets/${ticket.id}`)).body.status).toBe("open");
    const replies = await emu.get(`/support/tickets/${ticket.id}/replies`);
    expect(replies.body.data.map((r: any) => [r.description, r.from_compute])).toEqual([
      ["More details", false],
      ["We are on it", true],
    ]);

    expect((await emu.post(`/support/tickets/${ticket.id}/close`)).status).toBe(200);
    const closed = (await emu.get(`/support/tickets/${ticket.id}`)).body;
    expect(closed).toMatchObject({ status: "closed", closable: false, closed: expect.any(String) });

    const late = await emu.post(`/support/tickets/${ticket.id}/replies`, { description: "one more" });
    expect(late.status).toBe(400);
    expect(onlyError(late)).toEqual({ reason: SUPPORT_REASONS.ticketClosed });

    const events = (await emu.get("/account/events")).body.data.map((e: any) => e.action);
    expect(events.filter((a: string) => a.startsWith("ticket_")).sort()).toEqual([
      "ticket_create",
      "ticket_update",
      "ticket_update",
      "ticket_update",
    ]);
  });

  test("open tickets are listed first", async () => {
    const first = (await emu.post("/support/tickets", { ...base, summary: "first" })).body;
    await emu.post("/support/tickets", { ...base, summary: "second" });
    await emu.post(`/support/tickets/${first.id}/close`);
    await emu.post("/support/tickets", { ...base, summary: "third" });
    const list = await emu.get("/support/tickets");
    expect(list.body.data.map((t: any) => t.summary)).toEqual(["third", "second", "first"]);
  });

  test("a ticket the provider opened cannot be closed by the customer", async () => {
    const seeded = emu.control.support.seedTicket({ summary: "Scheduled maintenance", description: "Host move" });
    expect(seeded).toMatchObject({ opened_by: "compute", closable: false });
    const res = await emu.post(`/support/tickets/${seeded.id}/close`);
    expect(res.status).toBe(400);
    expect(onlyError(res)).toEqual({ reason: SUPPORT_REASONS.notClosable });
  });
});

describe("attachments", () => {
  test("an allowed extension is attached and listed by name", async () => {
    const { body: ticket } = await emu.post("/support/tickets", base);
    const res = await attach(ticket.id, "screenshot.PNG", new Uint8Array([137, 80, 78, 71]));
    expect(res).toEqual({ status: 200, body: {} });
    expect((await emu.get(`/support/tickets/${ticket.id}`)).body.attachments).toEqual(["screenshot.PNG"]);
    const events = (await emu.get("/account/events")).body.data.map((e: any) => e.action);
    expect(events).toContain("ticket_attachment_upload");
  });

  test("a refused extension is a 400 naming file, and nothing is attached", async () => {
    const { body: ticket } = await emu.post("/support/tickets", base);
    const res = await attach(ticket.id, "payload.exe", new Uint8Array([1, 2, 3]));
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: "file", reason: SUPPORT_REASONS.attachmentExtension }]);
    expect((await emu.get(`/support/tickets/${ticket.id}`)).body.attachments).toEqual([]);
  });

  test("an attachment over the size limit is refused", async () => {
    const { body: ticket } = await emu.post("/support/tickets", base);
    const res = await attach(ticket.id, "big.txt", new Uint8Array(MAX_ATTACHMENT_BYTES + 1));
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: "file", reason: SUPPORT_REASONS.attachmentTooLarge(MAX_ATTACHMENT_BYTES) }]);
  });

  test("a body that is not multipart names the missing file", async () => {
    const { body: ticket } = await emu.post("/support/tickets", base);
    const res = await emu.post(`/support/tickets/${ticket.id}/attachments`, { file: "x" });
    expect(res.status).toBe(400);
    expect(onlyError(res)).toEqual({ field: "file", reason: SUPPORT_REASONS.attachmentMissing });
  });
});
