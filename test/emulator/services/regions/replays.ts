/** The region recordings replayed: the catalog and the availability list (its last page too). */
import { replayModule } from "../../replay";

export const regionReplays = replayModule({
  name: "regions",
  replays: (emu) => ({
    "region.list.json": () => emu.get("/regions"),
    "region_availability.list.json": () => emu.get("/regions/availability"),
    "region_availability.list.page3.json": () => emu.get("/regions/availability", { query: { page: 3 } }),
  }),
});
