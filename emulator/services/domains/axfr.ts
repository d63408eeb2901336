/**
 * The zone transfer behind `POST /domains/import`: a real AXFR (RFC 5936) over TCP with
 * `dns-packet` — one query, then answers in 2-byte length-prefixed messages until the zone's SOA
 * comes round a second time — and the conversion of the transferred RRs into the API's records.
 *
 * The remote nameserver is reached on `port` (53 unless the emulator was told otherwise with
 * `zoneTransferPort`, which is how tests reach an authoritative server on a random loopback port).
 */
import { connect } from "node:net";
import * as dnsPacket from "dns-packet";
import {
  roundRecordTtl,
  roundUpDomainSeconds,
  relativeRecordName,
  recordRuleErrors,
  MAX_RECORDS_PER_DOMAIN,
} from "../../../sdk/resources/domains";
import type { DomainUpdateRequest } from "../../../sdk/resources/domains";
import type { RecordWrite } from "./store";

/** Real-time limit of one transfer. */
export const TRANSFER_TIMEOUT_MS = 10_000;
/** Answers accepted from one transfer; a larger zone could not be stored anyway (12,000 records). */
const MAX_ANSWERS = MAX_RECORDS_PER_DOMAIN * 2;

export type TransferFailure = "unreachable" | "refused" | "failed";

/** A transfer that did not produce a zone; `kind` picks the API's reason. */
export class TransferError extends Error {
  constructor(
    readonly kind: TransferFailure,
    message: string,
  ) {
    super(message);
  }
}

/** Transfers `zone` from `host:port`; resolves the answers from the first SOA to the closing one, both included. */
export function transferZone(host: string, port: number, zone: string, timeoutMs = TRANSFER_TIMEOUT_MS): Promise<dnsPacket.Answer[]> {
  return new Promise((resolve, reject) => {
    const answers: dnsPacket.Answer[] = [];
    let buffered = Buffer.alloc(0);
    let connected = false;
    let settled = false;
    const socket = connect({ host, port });
    const finish = (error?: TransferError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(answers);
    };
    const timer = setTimeout(() => finish(new TransferError("failed", `no complete transfer within ${timeoutMs} ms`)), timeoutMs);
    socket.on("connect", () => {
      connected = true;
      const id = Math.floor(Math.random() * 65536);
      socket.write(dnsPacket.streamEncode({ type: "query", id, questions: [{ type: "AXFR", name: zone, class: "IN" }] }));
    });
    socket.on("error", (error) => finish(new TransferError(connected ? "failed" : "unreachable", error.message)));
    socket.on("close", () =>
      finish(new TransferError(connected ? "failed" : "unreachable", "connection closed before the transfer completed")),
    );
    socket.on("data", (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 2) {
        const length = buffered.readUInt16BE(0);
        if (buffered.length < 2 + length) break;
        const message = buffered.subarray(2, 2 + length);
        buffered = buffered.subarray(2 + length);
        let packet: dnsPacket.DecodedPacket & { rcode?: string };
        try {
          packet = dnsPacket.decode(message);
        } catch (error) {
          return finish(new TransferError("failed", `undecodable message: ${(error as Error).message}`));
        }
        if (packet.rcode && packet.rcode !== "NOERROR") return finish(new TransferError("refused", `rcode ${packet.rcode}`));
        for (const answer of packet.answers ?? []) {
          if (answers.length === 0 && answer.type !== "SOA")
            return finish(new TransferError("failed", "the transfer did not start with the zone's SOA"));
          answers.push(answer);
          if (answers.length > 1 && answer.type === "SOA") return finish();
          if (answers.length > MAX_ANSWERS) return finish(new TransferError("failed", "too many records"));
        }
        if (answers.length === 0) return finish(new TransferError("refused", "empty answer"));
      }
    });
  });
}

/** `hostmaster.example.com` → `hostmaster@example.com` (the first unescaped dot separates the local part). */
export function mailboxToEmail(rname: string): string {
  const name = rname.endsWith(".") ? rname.slice(0, -1) : rname;
  const split = /^((?:[^.\\]|\\.)*)\.(.+)$/.exec(name);
  if (!split) return name;
  return `${split[1]!.replace(/\\\./g, ".")}@${split[2]}`;
}

function text(data: unknown): string {
  if (Array.isArray(data)) return data.map(text).join("");
  return Buffer.isBuffer(data) ? data.toString("utf8") : String(data);
}

/**
 * The domain settings and records an import creates from a transfer. The SOA supplies the contact
 * and the timers (rounded up, P2-9); the zone's own apex NS records are dropped (the platform
 * serves the zone with its own nameservers); types the API does not have, names outside the zone
 * and records the API would refuse are skipped.
 */
export function importedZone(zone: string, answers: dnsPacket.Answer[]): { domain: DomainUpdateRequest; records: RecordWrite[] } {
  const soa = answers[0] as dnsPacket.SoaAnswer;
  const domain: DomainUpdateRequest = {
    soa_email: mailboxToEmail(soa.data.rname),
    refresh_sec: roundUpDomainSeconds(soa.data.refresh ?? 0),
    retry_sec: roundUpDomainSeconds(soa.data.retry ?? 0),
    expire_sec: roundUpDomainSeconds(soa.data.expire ?? 0),
    ttl_sec: roundUpDomainSeconds(soa.data.minimum ?? 0),
  };
  const records: RecordWrite[] = [];
  for (const answer of answers.slice(1, -1)) {
    const name = relativeRecordName(`${answer.name}.`, zone);
    if (name === undefined) continue;
    const record = recordFromAnswer(answer, name);
    if (!record) continue;
    if (record.type === "NS" && name === "") continue;
    if (recordRuleErrors({ type: record.type!, ...record }).length > 0) continue;
    records.push({ ...record, ttl_sec: roundRecordTtl((answer as { ttl?: number }).ttl ?? 0) });
  }
  return { domain, records };
}

function recordFromAnswer(answer: dnsPacket.Answer, name: string): RecordWrite | undefined {
  switch (answer.type) {
    case "A":
    case "AAAA":
    case "NS":
    case "CNAME":
    case "PTR":
      return { type: answer.type, name, target: answer.data };
    case "MX":
      return { type: "MX", name, target: answer.data.exchange, priority: answer.data.preference ?? 0 };
    case "TXT":
      return { type: "TXT", name, target: text(answer.data) };
    case "CAA":
      return { type: "CAA", name, target: answer.data.value, tag: answer.data.tag };
    case "SRV": {
      const [service, protocol, ...rest] = name.split(".");
      if (!service?.startsWith("_") || !protocol?.startsWith("_")) return undefined;
      const { priority = 0, weight = 0, port, target } = answer.data;
      return { type: "SRV", name: rest.join("."), service, protocol, priority, weight, port, target };
    }
    default:
      return undefined;
  }
}
