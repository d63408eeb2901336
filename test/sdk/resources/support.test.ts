/**
 * The support client against the emulator over HTTP. The unrecorded ticket fixtures are replayed
 * through the endpoint declarations in `test/sdk/fixtures.test.ts`.
 */
import { startEmulator, type RunningEmulator } from "../../../emulator";
import { ComputeClient } from "../../../sdk/client";
import { ClientValidationError } from "../../../sdk/core/errors";
import { SUPPORT_REASONS } from "../../../sdk/resources/support";

let emulator: RunningEmulator;
let client: ComputeClient;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  client = new ComputeClient({ baseUrl: emulator.url, token: emulator.token });
});
afterAll(async () => {
  await client.close();
  await emulator.close();
});

test("open, reply, attach, list and close through the client", async () => {
  const ticket = await client.support.tickets.open({ summary: "Disk slow", description: "iowait is high" });
  await client.support.tickets.replies.create(ticket.id, { description: "since Monday" });
  await client.support.tickets.attach(ticket.id, { filename: "iostat.txt", data: new TextEncoder().encode("await 80ms") });
  expect((await client.support.tickets.get(ticket.id)).attachments).toEqual(["iostat.txt"]);
  expect((await client.support.tickets.replies.listAll(ticket.id)).map((r) => r.description)).toEqual(["since Monday"]);
  await client.support.tickets.close(ticket.id);
  expect((await client.support.tickets.listAll()).map((t) => t.status)).toEqual(["closed"]);
});

test("rules are checked before sending", async () => {
  emulator.control.clearRequests();
  const error = await client.support.tickets.open({ summary: "x", description: "y", compute_id: 1, vpc_id: 2 }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ClientValidationError);
  expect((error as ClientValidationError).errors).toEqual([{ field: "vpc_id", reason: SUPPORT_REASONS.oneIdAttribute }]);
  const refused = await client.support.tickets.attach(1, { filename: "x.exe", data: new Uint8Array(1) }).catch((e: unknown) => e);
  expect((refused as ClientValidationError).errors).toEqual([{ field: "file", reason: SUPPORT_REASONS.attachmentExtension }]);
  expect(emulator.control.listRequests()).toEqual([]);
});
