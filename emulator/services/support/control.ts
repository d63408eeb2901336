/**
 * Control operations for support: tickets the provider opens itself (seeded), replies from the
 * provider's staff, and the account's Managed service switch that `managed_issue` tickets need.
 */
import { z } from "zod";
import { ApiFailure, entry, notFound } from "../../core/errors";
import type { EmulatorRuntime } from "../../core/runtime";
import type { AccountState } from "../../core/state";
import { PROVIDER_USERNAME, findTicket } from "./store";
import { renderTicket } from "./render";
import { addReply, openTicket } from "./operations";

export const TicketSeedRequest = z.strictObject({
  account: z.string().optional(),
  summary: z.string().min(1).max(64),
  description: z.string().min(1),
  entity: z.strictObject({ id: z.number().int(), label: z.string().nullable(), type: z.string(), url: z.string() }).nullable().optional(),
});
export const StaffReplyRequest = z.strictObject({ description: z.string().min(1) });
export const AccountSettingsRequest = z.strictObject({ account: z.string().optional(), managed: z.boolean() });

function parse<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new ApiFailure(400, parsed.error.issues.map((i) => entry(i.message, i.path.join("."))));
  return parsed.data;
}

export class SupportControl {
  constructor(
    private readonly runtime: EmulatorRuntime,
    private readonly accountOf: (id: string | undefined) => AccountState,
  ) {}

  /** A ticket opened by the provider (e.g. about an incident); the customer cannot close it. */
  seedTicket(input: z.input<typeof TicketSeedRequest>) {
    const request = parse(TicketSeedRequest, input);
    const account = this.accountOf(request.account);
    const ticket = openTicket(
      { runtime: this.runtime, account, username: PROVIDER_USERNAME },
      { summary: request.summary, description: request.description, entity: request.entity ?? null, generated: true },
    );
    this.runtime.persist();
    return renderTicket(ticket);
  }

  /** A reply from the provider's staff; a new ticket becomes `open`. */
  staffReply(ticketId: number, input: z.input<typeof StaffReplyRequest>) {
    const { description } = parse(StaffReplyRequest, input);
    for (const account of Object.values(this.runtime.state.accounts)) {
      const ticket = findTicket(account, ticketId);
      if (!ticket) continue;
      const reply = addReply({ runtime: this.runtime, account, username: PROVIDER_USERNAME }, ticket, description, true);
      this.runtime.persist();
      return reply;
    }
    throw notFound();
  }

  /** Turns the account's Managed service on or off. */
  setManaged(input: z.input<typeof AccountSettingsRequest>): { managed: boolean } {
    const request = parse(AccountSettingsRequest, input);
    this.accountOf(request.account).managed = request.managed;
    this.runtime.persist();
    return { managed: request.managed };
  }
}
