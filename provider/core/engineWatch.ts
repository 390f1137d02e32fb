// A provider process ends when the engine that started it is gone. The engine starts each plugin in
// a process group of its own and ends it when the run closes; when the engine itself is killed
// (a CI job's SIGKILL, an OOM kill) or crashes, nobody ends the plugin: its gRPC server keeps it
// alive, idle, forever. So the process watches for either sign that its engine died:
// - its parent changed: the engine execs a plugin directly (the txmail executable, or the
//   package's script, which execs node), so its parent is the engine until the engine dies and
//   the process is handed to init or a subreaper;
// - nothing listens on the engine's address any more: a plugin started through a wrapper that
//   does not exec (the dynamic-provider host's `pulumi-resource-pulumi-nodejs` shell script) keeps
//   its shell as parent, but the engine's gRPC port closes with the engine. A refused connection
//   on loopback is final (a busy listener drops or delays, it does not refuse).
// Each check is one loopback connect, opened and closed at once (the engine's gRPC server ends
// such a connection quietly), once a second.
import * as net from "node:net";

const ADDRESS = /^(?:\[([0-9a-fA-F:]+)\]|([\w.-]+)):(\d{1,5})$/;

/** The engine's address among a plugin's arguments: the first that is host:port (the others are flags). */
export function engineAddressOf(args: readonly string[]): string | undefined {
  return args.find((a) => !a.startsWith("-") && ADDRESS.test(a));
}

/** Whether something still accepts connections at host:port; false only when the connect is refused. */
export function listening(address: string, timeoutMs = 1000): Promise<boolean> {
  const m = ADDRESS.exec(address);
  if (!m) return Promise.resolve(true);
  const host = m[1] ?? m[2]!;
  const port = Number(m[3]);
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (alive: boolean) => {
      socket.destroy();
      resolve(alive);
    };
    socket.setTimeout(timeoutMs, () => done(true)); // slow is not gone
    socket.once("connect", () => done(true));
    socket.once("error", (e: NodeJS.ErrnoException) => done(e.code !== "ECONNREFUSED"));
  });
}

let watching = false;

/**
 * Started by an engine (its address among `args`, the process's arguments): exit once that engine
 * is gone — the parent the process has now changed, or the address refuses connections. Run
 * without one (by hand, a debugger attaching), nothing is watched. Once per process; the timer
 * never keeps the process alive by itself.
 */
export function exitWithTheEngine(args: readonly string[], intervalMs = 1000): void {
  const engineAddress = engineAddressOf(args);
  if (!engineAddress || watching) return;
  watching = true;
  const parentPid = process.ppid;
  let checking = false;
  const check = () => {
    if (checking) return;
    if (process.ppid !== parentPid) process.exit(0);
    checking = true;
    void listening(engineAddress).then((alive) => {
      checking = false;
      if (!alive) process.exit(0);
    });
  };
  setInterval(check, intervalMs).unref();
}
