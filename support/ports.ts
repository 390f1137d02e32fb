// A port free on 127.0.0.1, for the servers tests start that take a port rather than reporting the
// one they bound (PostgreSQL, PowerDNS, the registry servers). Another process may take it before
// the server binds: each caller retries or fails saying so.
import * as net from "node:net";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
