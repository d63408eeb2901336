/** The VLAN recording replayed: the recorded instances seeded with a `vlan` interface of the recorded label. */
import { replayModule } from "../../replay";
import { seeded } from "../ips/replays";

export const vlanReplays = replayModule({
  name: "vlans",
  replays: (emu) => ({
    "vlan.list.json": (f) => {
      const [vlan] = f.response.data;
      const configs = [{ interfaces: [{ purpose: "vlan", label: vlan.label }] }];
      for (const id of vlan.computes) seeded(emu, `v${id}`, "ap-west", { id, configs });
      return emu.get(f.path);
    },
  }),
});
