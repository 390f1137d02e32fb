// The provider processes' watch for their engine (provider/core/engineWatch.ts), with real processes
// and a real listening socket standing for the engine's gRPC server.
import { type ChildProcess, spawn } from "node:child_process";
import * as net from "node:net";
import * as path from "node:path";
import { engineAddressOf, listening } from "../../../provider/core/engineWatch";
import { running } from "../../../support/processes";

const WATCH = path.resolve(__dirname, "../../../dist/provider/core/engineWatch.js");

/** A process that only watches (as a plugin would, its gRPC server keeping it alive meanwhile). */
const pluginScript = (address: string, intervalMs: number) => `
  const { exitWithTheEngine } = require(${JSON.stringify(WATCH)});
  exitWithTheEngine(["--logtostderr", ${JSON.stringify(address)}], ${intervalMs});
  setInterval(() => undefined, 60_000); // what the gRPC server does: never exit by itself
  process.stdout.write("watching\\n");
`;

function exited(child: ChildProcess, withinMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), withinMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

function started(child: ChildProcess, line: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.setEncoding("utf8").on("data", (s: string) => {
      out += s;
      const m = line.exec(out);
      if (m) resolve(m[1] ?? m[0]);
    });
    child.once("exit", (code) => reject(new Error(`exited (${code}) before '${line}': ${out}`)));
  });
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
});

function listen(): Promise<net.Server> {
  return new Promise((resolve) => {
    const server = net.createServer((socket) => socket.destroy());
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}
const addressOf = (server: net.Server) => `127.0.0.1:${(server.address() as net.AddressInfo).port}`;

describe("a provider process and its engine", () => {
  it("finds the engine's address among the plugin's arguments, flags before it", () => {
    expect(engineAddressOf(["--logtostderr", "-v=9", "127.0.0.1:41233"])).toBe("127.0.0.1:41233");
    expect(engineAddressOf(["localhost:5000", "--root", "/x"])).toBe("localhost:5000");
    expect(engineAddressOf(["[::1]:5000"])).toBe("[::1]:5000");
    expect(engineAddressOf(["--tracing", "-v=3"])).toBeUndefined();
    expect(engineAddressOf([])).toBeUndefined();
  });

  it("tells a closed port (gone) from a listening one", async () => {
    const server = await listen();
    const address = addressOf(server);
    expect(await listening(address)).toBe(true);
    await new Promise((r) => server.close(r));
    expect(await listening(address)).toBe(false);
  });

  it("exits by itself soon after the engine's address stops listening (engine killed, crashed)", async () => {
    const server = await listen();
    const plugin = spawn(process.execPath, ["-e", pluginScript(addressOf(server), 100)], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(plugin);
    await started(plugin, /watching/);
    expect(await exited(plugin, 800)).toBe(false); // alive while its engine is
    await new Promise((r) => server.close(r));
    expect(await exited(plugin, 5_000)).toBe(true);
  });

  it("exits by itself soon after its parent (the engine that exec'd it) dies, even while the address still listens", async () => {
    const server = await listen(); // never closed during the test: only the parent goes
    // The "engine": starts the plugin in a process group of its own (as Pulumi does) and is killed.
    const engine = spawn(
      process.execPath,
      [
        "-e",
        `const { spawn } = require("node:child_process");
         const p = spawn(process.execPath, ["-e", ${JSON.stringify(pluginScript(addressOf(server), 100))}], { detached: true, stdio: ["ignore", "pipe", "inherit"] });
         p.stdout.once("data", () => process.stdout.write("plugin " + p.pid + "\\n"));
         setInterval(() => undefined, 60_000);`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    children.push(engine);
    const pluginPid = Number(await started(engine, /plugin (\d+)/));
    // A zombie (dead, not yet reaped: the plugin's parent died, and a container's PID 1 may never
    // reap it) has ended: `kill(pid, 0)` would still count it.
    const alive = () => running(pluginPid);
    try {
      expect(alive()).toBe(true);
      engine.kill("SIGKILL");
      // A backstop, not a timing: it ends within a second of its engine's death (engineWatch.ts).
      const deadline = Date.now() + 30_000;
      while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(alive()).toBe(false);
    } finally {
      if (alive()) process.kill(pluginPid, "SIGKILL");
      server.close();
    }
  });
});
