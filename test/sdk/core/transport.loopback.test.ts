/**
 * The transport-error classification against real sockets on 127.0.0.1 (no outside network):
 * the MockAgent tests inject error codes we chose; these check that undici's real errors for a
 * refused connection, a reset after the request was written, and a stalled body land in the
 * right class with the right `sent` flag.
 */
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer, type AddressInfo, type Server } from "node:net";
import { ComputeClient } from "../../../sdk/client";
import { ConnectionError, TimeoutError } from "../../../sdk/core/errors";
import type { RetryEvent } from "../../../sdk/core/http";

const listen = (server: Server | HttpServer) =>
  new Promise<number>((ok) => server.listen(0, "127.0.0.1", () => ok((server.address() as AddressInfo).port)));
const close = (server: Server | HttpServer) => new Promise<void>((ok) => server.close(() => ok()));

function client(port: number, extra: Partial<ConstructorParameters<typeof ComputeClient>[0]> = {}) {
  const retries: RetryEvent[] = [];
  const c = new ComputeClient({
    baseUrl: `http://127.0.0.1:${port}/v4`,
    token: "loopback-token",
    sleep: async () => {},
    onRetry: (e) => void retries.push(e),
    ...extra,
  });
  return { c, retries };
}

test("a refused connection is ConnectionError{sent:false} and even a POST is retried", async () => {
  const server = createServer();
  const port = await listen(server);
  await close(server);
  const { c, retries } = client(port, { retry: { maxRetries: 2 } });
  const error = (await c.vpcs.create({ label: "a", region: "us-east" }).catch((e: unknown) => e)) as ConnectionError;
  await c.close();
  expect(error).toBeInstanceOf(ConnectionError);
  expect(error).toMatchObject({ sent: false, code: "ECONNREFUSED" });
  expect(retries.map((r) => r.reason)).toEqual(["connection not established", "connection not established"]);
});

test("a reset after the request was written is ConnectionError{sent:true}; a POST is sent once", async () => {
  let requests = 0;
  const server = createServer((socket) => {
    socket.once("data", () => {
      requests++;
      socket.destroy();
    });
  });
  const port = await listen(server);
  const { c, retries } = client(port);
  const error = (await c.vpcs.create({ label: "a", region: "us-east" }).catch((e: unknown) => e)) as ConnectionError;
  await c.close();
  await close(server);
  expect(error).toBeInstanceOf(ConnectionError);
  expect(error.sent).toBe(true);
  expect(requests).toBe(1);
  expect(retries).toHaveLength(0);
});

test("the deadline covers the body: headers then a stall → TimeoutError", async () => {
  const server = createHttpServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.write('{"data": [');
    // Never finishes the body.
  });
  const port = await listen(server);
  const { c } = client(port, { timeoutMs: 100, retry: { maxRetries: 0 } });
  const error = await c.regions.listAll().catch((e: unknown) => e);
  await c.close();
  server.closeAllConnections();
  await close(server);
  expect(error).toBeInstanceOf(TimeoutError);
});
