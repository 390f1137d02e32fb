// Progress lines shown by `pulumi up` while a provider works (a domain verification wait, many
// tenants). A dynamic provider process is started with the engine's address as its first argument
// but @pulumi/pulumi does not connect its log to it there, so this sends the engine's Log RPC
// directly, with the resource's URN so the line appears under that resource.
import { fromPulumi } from "./pulumiModules";

interface EngineClient {
  log(req: unknown, cb: (err: unknown) => void): void;
}

let client: EngineClient | null | undefined;

/** Lines sent to the engine whose Log call has not been answered yet. */
const inFlight = new Set<Promise<void>>();

function engine(): EngineClient | null {
  if (client !== undefined) return client;
  const addr = process.argv[2];
  client = null;
  if (!addr || !/^[\w.-]+:\d+$/.test(addr)) return client;
  try {
    // Resolve gRPC and the engine proto from @pulumi/pulumi's own dependencies.
    const grpc = fromPulumi<typeof import("@grpc/grpc-js")>("@grpc/grpc-js");
    const rpc = fromPulumi<{ EngineClient: new (addr: string, creds: unknown) => EngineClient }>(
      "@pulumi/pulumi/proto/engine_grpc_pb",
    );
    client = new rpc.EngineClient(addr, grpc.credentials.createInsecure()) as EngineClient;
  } catch {
    client = null;
  }
  return client;
}

/** Logs a line (info unless said) for the resource `urn` (or the stack when absent); never throws. */
export function progress(message: string, urn?: unknown, severity: "INFO" | "WARNING" = "INFO"): void {
  const c = engine();
  if (!c) {
    process.stderr.write(`txmail: ${message}\n`);
    return;
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const proto = fromPulumi<any>("@pulumi/pulumi/proto/engine_pb");
  const req = new proto.LogRequest();
  req.setSeverity(proto.LogSeverity[severity]);
  req.setMessage(message);
  req.setUrn(typeof urn === "string" ? urn : "");
  req.setEphemeral(false);
  const sent = new Promise<void>((resolve) => c.log(req, () => resolve()));
  inFlight.add(sent);
  void sent.then(() => inFlight.delete(sent));
}

/**
 * Waits until every line sent so far has reached the engine (bounded: a line is never worth a
 * hang). An operation's answer must not overtake its lines: a failed create's answer can end the
 * run, and the engine then ends this process with a warning still on its way — a likely leftover
 * reported to nobody (found by the history tester's engine depth, test/histories).
 */
export async function delivered(timeoutMs = 10_000): Promise<void> {
  if (inFlight.size === 0) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all([...inFlight]),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs))),
  ]);
  clearTimeout(timer);
}
