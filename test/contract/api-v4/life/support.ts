/** Support tickets with replies, and the account's events (list, get, seen, read). */
import { v4 } from "../client";
import type { LifeContext } from "./context";
import * as S from "../shapes";

const {
  EventActionKeys,
  closeSupportTicket,
  createReply,
  createSupportTicket,
  getEvent,
  getEvents,
  getTicket,
  getTicketReplies,
  getTickets,
  markEventRead,
  markEventSeen,
} = v4;

export async function supportLife(ctx: LifeContext): Promise<void> {
  const ticket = ctx.check(
    "ticket",
    await createSupportTicket({
      summary: "api-v4 contract ticket",
      description: "Opened by @linode/api-v4.",
      linode_id: ctx.computes.a.id,
    }),
    S.TICKET,
  );
  if (ticket.entity) ctx.check("ticket.entity", ticket.entity, S.ENTITY);
  expect(ticket.entity?.type).toBe("linode");
  expect(ctx.checkPage("tickets", await getTickets(), S.TICKET).map((t) => t.id)).toContain(ticket.id);
  // `createReply` puts `ticket_id` in the path and in the body.
  ctx.check("reply", await createReply({ ticket_id: ticket.id, description: "A reply from @linode/api-v4." }), S.REPLY);
  expect(ctx.checkPage("replies", await getTicketReplies(ticket.id), S.REPLY)).toHaveLength(1);
  await closeSupportTicket(ticket.id);
  expect(ctx.check("ticket closed", await getTicket(ticket.id), S.TICKET).status).toBe("closed");
}

/** Runs last: by then every other area has left its events. */
export async function eventsLife(ctx: LifeContext): Promise<{ unknownActions: string[] }> {
  const events = ctx.checkPage("events", await getEvents({ page_size: 500 }), S.EVENT);
  expect(events.length).toBeGreaterThan(0);
  for (const e of events) {
    if (e.entity) ctx.check(`events[${e.action}].entity`, e.entity, S.ENTITY);
    if (e.secondary_entity) ctx.check(`events[${e.action}].secondary_entity`, e.secondary_entity, S.ENTITY);
  }
  const first = events[0]!;
  expect(ctx.check("event", await getEvent(first.id), S.EVENT).id).toBe(first.id);
  await markEventSeen(first.id);
  await markEventRead(first.id);
  expect((await getEvent(first.id)).seen).toBe(true);
  // Actions the client's EventAction union does not name (after the renaming shim).
  const known = new Set<string>(EventActionKeys);
  return { unknownActions: [...new Set(events.map((e) => e.action as string))].filter((a) => !known.has(a)).sort() };
}
