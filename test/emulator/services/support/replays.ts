/**
 * The hand-written ticket recordings (`unrecorded/support_ticket.*`) replayed: a ticket about an
 * instance, viewed and listed. The hand-written cassettes omit `closable`, which the API lists on
 * every ticket (api-facts P2-6): the one documented difference.
 */
import { ok } from "../../helpers";
import { replayModule } from "../../replay";

const TICKET = { summary: "Test summary", description: "Test description" };

export const supportReplays = replayModule({
  name: "support",
  replays: (emu) => {
    const opened = () => {
      const compute = emu.control.seedCompute({ label: "Test Entity", region: "us-iad" });
      return ok(emu.post("/support/tickets", { ...TICKET, compute_id: compute.id }));
    };
    return {
      "unrecorded/support_ticket.get.json": {
        replay: async () => emu.get(`/support/tickets/${(await opened()).id}`),
        documented: ["$.closable: not in the recording"],
      },
      "unrecorded/support_ticket.list.json": {
        replay: async () => (await opened(), emu.get("/support/tickets", { query: { page: 1 } })),
        documented: ["$.data[0].closable: not in the recording"],
      },
    };
  },
});
