/**
 * Control operations for addresses: delay when a new A/AAAA record becomes visible to the reverse
 * DNS check, as real DNS takes a while to resolve a new record (the API refuses a reverse DNS name
 * until forward DNS resolves). In-process as `control.ips.*`; over HTTP under `/__emulator/ips`.
 */
import { z } from "zod";
import { type ControlContext, parseInput, serviceControl } from "../../core/service";
import { FORWARD_DNS_DELAY } from "./store";

export const ForwardDnsDelayRequest = z.strictObject({
  account: z.string().min(1).optional(),
  /** Emulated seconds between writing an A/AAAA record and the reverse-DNS check seeing it (0: at once). */
  seconds: z.number().min(0),
});

export class IpsControl {
  constructor(private readonly control: ControlContext) {}

  /** From now on, A/AAAA records of the account count for reverse DNS only `seconds` (emulated) after they are written. */
  delayForwardDns(input: z.input<typeof ForwardDnsDelayRequest>): { account: string; seconds: number } {
    const request = parseInput(ForwardDnsDelayRequest, input);
    const account = this.control.account(request.account);
    FORWARD_DNS_DELAY.set(account, Math.round(request.seconds * 1000));
    this.control.runtime.persist();
    return { account: account.id, seconds: FORWARD_DNS_DELAY.of(account) / 1000 };
  }
}

export const ipsControl = serviceControl({
  api: (control) => ({ ips: new IpsControl(control) }),
  routes: ({ ips }) => [{ method: "POST", path: "/ips/forward-dns-delay", handler: (r) => ips.delayForwardDns(r.body()) }],
});
