/**
 * The clock service of an emulated stack: the provider process the engine starts (another process)
 * waits on the clock of the emulator in the test's process through it (`engine/time.ts`
 * `jumpingTime`). A wait asked for here is a wait of `emulatedTime` on that clock, from when it
 * arrives: it moves the clock forward to the wait's end instead of sleeping, the earliest pending
 * wait first, so waits pending together overlap (waits that arrive one after the other can move
 * the clock a little further than real time would: the API is then only further along). A wait
 * whose caller goes away is dropped. Loopback only, on a free port; it keeps no process alive.
 */
import * as http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Clock } from "../../emulator/core/clock";
import { emulatedTime } from "./emulated-time";

/** The longest single wait the service takes: a day of the API's time (no wait of the engine's is longer). */
const LONGEST_WAIT_MS = 24 * 60 * 60 * 1000;

export interface ClockService {
  /** `http://127.0.0.1:<port>`, for `PULUMI_COMPUTE_EMULATED_CLOCK`. */
  readonly url: string;
  close(): Promise<void>;
}

export async function startClockService(clock: Clock): Promise<ClockService> {
  const time = emulatedTime(clock);
  const sockets = new Set<Socket>();
  const server = http.createServer((request, response) => {
    const answer = (status: number, body: unknown) => {
      if (response.destroyed) return;
      response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    };
    if (request.method !== "POST" || request.url !== "/sleep") return answer(404, { error: "POST /sleep {ms} only" });
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (text += chunk));
    request.on("end", () => {
      let ms: unknown;
      try {
        ms = (JSON.parse(text) as { ms?: unknown }).ms;
      } catch {
        ms = undefined;
      }
      if (typeof ms !== "number" || !(ms >= 0) || ms > LONGEST_WAIT_MS)
        return answer(400, { error: `ms must be a number of milliseconds from 0 to ${LONGEST_WAIT_MS}` });
      const gone = new AbortController();
      response.once("close", () => gone.abort());
      time.sleep(ms, gone.signal).then(
        () => answer(200, { now: clock.nowMs() }),
        () => undefined, // the caller went away
      );
    });
  });
  server.on("connection", (socket: Socket) => {
    socket.unref();
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
