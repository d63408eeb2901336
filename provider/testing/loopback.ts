/**
 * A service of an emulated stack that the processes the engine starts call back into the test's
 * process through (its clock, `clock-service.ts`; its key, `key-service.ts`): JSON over HTTP on a
 * free loopback port. It keeps no process alive, and closing it drops its connections.
 */
import * as http from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface LoopbackService {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  close(): Promise<void>;
}

/** Answers `status` with `body` as JSON, unless the caller went away. */
export function answerJson(response: http.ServerResponse, status: number, body: unknown): void {
  if (response.destroyed) return;
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

/** The request's body as JSON; undefined when it is not JSON. */
export function readJson(request: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (text += chunk));
    request.on("end", () => {
      try {
        resolve(JSON.parse(text));
      } catch {
        resolve(undefined);
      }
    });
  });
}

export async function serveLoopback(handler: http.RequestListener): Promise<LoopbackService> {
  const sockets = new Set<Socket>();
  const server = http.createServer(handler);
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
