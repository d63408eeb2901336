/**
 * The API's JSON responses say `Content-Type: application/json`, with no parameters (every
 * recorded response, errors included; api-facts P7-1). fastify appends `; charset=utf-8` when it
 * serializes an object, and clients compare the header exactly: linodego's `coupleAPIErrors`
 * refuses an error whose Content-Type is not its `Accept` (`application/json`) and reports
 * `Unexpected Content-Type` instead of the API's reasons. So every JSON answer leaves with the
 * bare media type; other types (the gateway's `text/html` 502, uploads) are left as they are.
 */
import type { FastifyReply } from "fastify";

export const JSON_CONTENT_TYPE = "application/json";

/** Called from the one `onSend` hook every response passes, after fastify has serialized it. */
export function exactJsonContentType(reply: FastifyReply): void {
  const header = reply.getHeader("content-type");
  if (typeof header !== "string") return;
  const mediaType = header.split(";")[0]!.trim().toLowerCase();
  if (mediaType === JSON_CONTENT_TYPE) reply.header("content-type", JSON_CONTENT_TYPE);
}
