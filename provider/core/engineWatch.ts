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

export interface EngineWatchOptions {
  /** The engine's gRPC address, host:port, as the engine passed it. */
  engineAddress?: string;
  /** The process id of the engine when the plugin started (the parent, if the engine execs it). */
  parentPid?: number;
  intervalMs?: number;
  /** What to do when the engine is gone (default: exit the process). */
  onGone?: (why: string) => void;
}

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

let watching: NodeJS.Timeout | undefined;

/**
 * Starts watching (once per process; later calls do nothing). The timer never keeps the process
 * alive by itself. Returns a function that stops the watch.
 */
export function exitWhenEngineGone(opts: EngineWatchOptions): () => void {
  if (watching) return () => undefined;
  const onGone = opts.onGone ?? (() => process.exit(0));
  const { engineAddress, parentPid } = opts;
  let checking = false;
  const timer = setInterval(() => {
    if (checking) return;
    if (parentPid !== undefined && process.ppid !== parentPid) {
      stop();
      onGone(`parent ${parentPid} gone`);
      return;
    }
    if (!engineAddress) return;
    checking = true;
    void listening(engineAddress).then((alive) => {
      checking = false;
      if (alive || !watching) return;
      stop();
      onGone(`engine ${engineAddress} gone`);
    });
  }, opts.intervalMs ?? 1000);
  timer.unref();
  watching = timer;
  const stop = () => {
    clearInterval(timer);
    if (watching === timer) watching = undefined;
  };
  return stop;
}
