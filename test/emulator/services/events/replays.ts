/**
 * The event recordings replayed with the events a VPC create records: one event, the list, the
 * empty list, and the database event listings' shape (the databases' replays reproduce their
 * actions and statuses too).
 */
import { ok, vpcBody } from "../../helpers";
import { replayModule } from "../../replay";

export const eventReplays = replayModule({
  name: "events",
  replays: (emu) => {
    const vpc = () => ok(emu.post("/vpcs", vpcBody("v")));
    const firstPage = async () => (await vpc(), emu.get("/account/events", { query: { page: 1 } }));
    return {
      "event.get.json": async () => {
        await vpc();
        const [event] = (await ok(emu.get("/account/events"))).data;
        return emu.get(`/account/events/${event.id}`);
      },
      "event.list.json": async () => (await vpc(), emu.get("/account/events")),
      "event.list.empty.json": () => emu.get("/account/events", { query: { page: 1 } }),
      "event.list.database_create.notification.json": firstPage,
      "event.list.database_create.finished.json": firstPage,
      "event.list.database_update.notification.json": firstPage,
      "event.list.database_update.finished.json": firstPage,
    };
  },
});
