/**
 * A small authoritative DNS server for tests: it serves one zone by zone transfer (AXFR over TCP,
 * 2-byte length-prefixed messages, RFC 5936) on 127.0.0.1 and a random port, using `dns-packet`.
 * Queries for any other zone, or of any other type, are answered REFUSED. Answers are spread over
 * several messages, as real servers do for large zones.
 */
import { createServer, type Server, type Socket } from "node:net";
import * as dnsPacket from "dns-packet";

export interface ZoneServerOptions {
  /** The zone's name, e.g. `example.com`. */
  zone: string;
  /** The zone's SOA data. */
  soa: dnsPacket.SoaData;
  /** Every other RR of the zone, owners fully qualified without a trailing period. */
  records: dnsPacket.Answer[];
  /** Answers per message (default 20). */
  perMessage?: number;
}

export interface ZoneServer {
  host: string;
  port: number;
  /** AXFR queries received, refused ones included. */
  queries(): Array<{ name: string; type: string }>;
  close(): Promise<void>;
}

const REFUSED = 5;

function respond(socket: Socket, query: dnsPacket.Packet, options: ZoneServerOptions): void {
  const question = query.questions?.[0];
  if (!question || question.type !== "AXFR" || question.name.toLowerCase() !== options.zone.toLowerCase()) {
    socket.write(dnsPacket.streamEncode({ type: "response", id: query.id, flags: REFUSED, questions: query.questions ?? [] }));
    return;
  }
  const soa: dnsPacket.Answer = { type: "SOA", name: options.zone, ttl: options.soa.minimum ?? 3600, class: "IN", data: options.soa };
  const all = [soa, ...options.records, soa];
  const size = options.perMessage ?? 20;
  for (let i = 0; i < all.length; i += size) {
    const answers = all.slice(i, i + size);
    socket.write(
      dnsPacket.streamEncode({ type: "response", id: query.id, flags: dnsPacket.AUTHORITATIVE_ANSWER, questions: [question], answers }),
    );
  }
}

/** Starts the server; `close()` stops it and drops open connections. */
export async function startZoneServer(options: ZoneServerOptions): Promise<ZoneServer> {
  const sockets = new Set<Socket>();
  const seen: Array<{ name: string; type: string }> = [];
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    let buffered = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
        const length = buffered.readUInt16BE(0);
        const query = dnsPacket.decode(buffered.subarray(2, 2 + length));
        buffered = buffered.subarray(2 + length);
        const q = query.questions?.[0];
        if (q) seen.push({ name: q.name, type: q.type });
        respond(socket, query, options);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("zone server has no port");
  return {
    host: "127.0.0.1",
    port: address.port,
    queries: () => [...seen],
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A zone of `count` records of assorted types under `zone` (names `h<i>`), for transfer tests. */
export function sampleZoneRecords(zone: string, count: number): dnsPacket.Answer[] {
  const records: dnsPacket.Answer[] = [];
  for (let i = 0; i < count; i++) {
    const name = `h${i}.${zone}`;
    switch (i % 5) {
      case 0:
        records.push({ type: "A", name, ttl: 300, class: "IN", data: `192.0.2.${i % 250}` });
        break;
      case 1:
        records.push({ type: "AAAA", name, ttl: 3600, class: "IN", data: `2001:db8::${i.toString(16)}` });
        break;
      case 2:
        records.push({ type: "TXT", name, ttl: 7200, class: "IN", data: [`text record ${i}`] });
        break;
      case 3:
        records.push({ type: "MX", name, ttl: 3600, class: "IN", data: { preference: i, exchange: `mail${i}.${zone}` } });
        break;
      default:
        records.push({ type: "CNAME", name, ttl: 86400, class: "IN", data: `target${i}.example.net` });
    }
  }
  return records;
}
