/**
 * Envelopes every endpoint shares, recorded on endpoints outside the sdk or on another area's, and
 * reproduced here on VPC endpoints: the API's error envelope and text are what the emulator must
 * reproduce, whichever endpoint answers them (a bad X-Filter, an invalid token, an unknown id, the
 * rate limit).
 */
import { VPC_ENDPOINTS } from "../../../sdk/resources/vpcs";
import { replayModule } from "../replay";

const ENVELOPE = "the envelope and text are the same on every endpoint; replayed on a VPC endpoint";

export const coreReplays = replayModule({
  name: "core",
  replays: (emu) => ({
    "error.400.bad_filter.json": {
      replay: () => emu.get("/vpcs", { headers: { "X-Filter": '{"foo": "bar"}' } }),
      elsewhere: { endpoint: VPC_ENDPOINTS.list, why: `recorded on GET /images; ${ENVELOPE}` },
    },
    "error.401.invalid_token.json": {
      replay: () => emu.get("/vpcs", { token: "REDACTED" }),
      elsewhere: { endpoint: VPC_ENDPOINTS.list, why: `recorded on GET /networking/reserved/ips, outside the sdk; ${ENVELOPE}` },
    },
    "error.404.ip.json": {
      replay: () => emu.get("/vpcs/404"),
      elsewhere: { endpoint: VPC_ENDPOINTS.get, why: `recorded on GET /networking/ips/{address}; ${ENVELOPE}` },
    },
    "error.429.too_many_requests.json": {
      replay: () => {
        emu.control.addFault({ pathPattern: "/v4/vpcs*", kind: "429" });
        return emu.del("/vpcs/1");
      },
      elsewhere: {
        endpoint: VPC_ENDPOINTS.delete,
        why: `recorded on DELETE /networking/reserved/ips/{address}, outside the sdk; ${ENVELOPE}`,
      },
    },
  }),
});
