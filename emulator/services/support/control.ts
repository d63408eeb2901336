/**
 * Control operations for support: tickets the provider opens itself (seeded), replies from the
 * provider's staff, and the account's Managed service switch that `managed_issue` tickets need.
 * In-process as `control.support.*`; over HTTP `POST /__emulator/seed/tickets`,
 * `/seed/tickets/{id}/replies`, `/account-settings`.
 */
import { z } from "zod";
import { notFound } from "../../core/errors";
import { type ControlContext, parseInput, serviceControl, zodIssueEntries } from "../../core/service";
import { MANAGED, PROVIDER_USERNAME, findTicket } from "./store";
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

/** Support's control answers with zod's own texts. */
const parse = <T extends z.ZodType>(schema: T, input: unknown) => parseInput(schema, input, zodIssueEntries);

export class SupportControl {
  constructor(private readonly control: ControlContext) {}

  /** A ticket opened by the provider (e.g. about an incident); the customer cannot close it. */
  seedTicket(input: z.input<typeof TicketSeedRequest>) {
    const request = parse(TicketSeedRequest, input);
    const account = this.control.account(request.account);
    const ticket = openTicket(
      { runtime: this.control.runtime, account, username: PROVIDER_USERNAME },
      { summary: request.summary, description: request.description, entity: request.entity ?? null, generated: true },
    );
    this.control.runtime.persist();
    return renderTicket(ticket);
  }

  /** A reply from the provider's staff; a new ticket becomes `open`. */
  staffReply(ticketId: number, input: z.input<typeof StaffReplyRequest>) {
    const { description } = parse(StaffReplyRequest, input);
    const runtime = this.control.runtime;
    for (const account of Object.values(runtime.state.accounts)) {
      const ticket = findTicket(account, ticketId);
      if (!ticket) continue;
      const reply = addReply({ runtime, account, username: PROVIDER_USERNAME }, ticket, description, true);
      runtime.persist();
      return reply;
    }
    throw notFound();
  }

  /** Turns the account's Managed service on or off. */
  setManaged(input: z.input<typeof AccountSettingsRequest>): { managed: boolean } {
    const request = parse(AccountSettingsRequest, input);
    MANAGED.set(this.control.account(request.account), request.managed);
    this.control.runtime.persist();
    return { managed: request.managed };
  }
}

export const supportControl = serviceControl({
  api: (control) => ({ support: new SupportControl(control) }),
  routes: ({ support }) => [
    { method: "POST", path: "/seed/tickets", handler: (r) => support.seedTicket(r.body()) },
    { method: "POST", path: "/seed/tickets/:ticketId/replies", handler: (r) => support.staffReply(r.id("ticketId"), r.body()) },
    { method: "POST", path: "/account-settings", handler: (r) => support.setManaged(r.body()) },
  ],
});
