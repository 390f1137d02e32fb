// A provider's lines reach the engine before its answer leaves (provider/core/progress.ts
// `delivered`, provider/runtime.ts `withLinesDelivered`): a failed create's answer can end the run, and the engine
// then ends the plugin with a warning still on its way — a likely leftover reported to nobody. The
// history tester's engine depth found it (test/histories/regressions.test.ts, "a unique object
// committed before a 5xx, then dropped from the program", replayed through the real engine). Here
// a fake engine answers the Log call only when the test says so.
import type * as grpcJs from "@grpc/grpc-js";
import { fromPulumi } from "../../../provider/core/pulumiModules";

type ProgressModule = typeof import("../../../provider/core/progress");

interface LogCall {
  request: { getMessage(): string };
}

/** Polls (bounded) until `pred` holds. */
async function until(what: string, pred: () => boolean): Promise<void> {
  for (let i = 0; i < 600 && !pred(); i++) await new Promise((r) => setTimeout(r, 50));
  if (!pred()) throw new Error(`timed out waiting for ${what}`);
}

/** A fake engine on loopback whose Log answers wait for `answerAll()`. */
async function fakeEngine() {
  const grpc = fromPulumi<typeof grpcJs>("@grpc/grpc-js");
  const rpc = fromPulumi<{ EngineService: grpcJs.ServiceDefinition }>("@pulumi/pulumi/proto/engine_grpc_pb");
  const empty = fromPulumi<{ Empty: new () => unknown }>("google-protobuf/google/protobuf/empty_pb");
  const received: string[] = [];
  const waiting: (() => void)[] = [];
  const server = new grpc.Server();
  server.addService(rpc.EngineService, {
    log: (call: LogCall, answer: (err: null, res: unknown) => void) => {
      received.push(call.request.getMessage());
      waiting.push(() => answer(null, new empty.Empty()));
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  return {
    address: `127.0.0.1:${port}`,
    received,
    answerAll: () => waiting.splice(0).forEach((answer) => answer()),
    close: () => server.forceShutdown(),
  };
}

/** progress.ts loaded afresh in a plugin started with the engine's address (its first argument, read at the first line). */
function progressFor(address: string): { p: ProgressModule; restore: () => void } {
  const argv = process.argv;
  process.argv = [argv[0]!, argv[1]!, address];
  let loaded: ProgressModule | undefined;
  jest.isolateModules(() => {
    loaded = require("../../../provider/core/progress") as ProgressModule;
  });
  return { p: loaded!, restore: () => (process.argv = argv) };
}

test("`delivered` waits until the engine has answered every line sent, and not once none is in flight", async () => {
  const engine = await fakeEngine();
  const { p, restore } = progressFor(engine.address);
  try {
    await p.delivered(); // nothing sent: at once
    p.progress("likely leftover: Route r-1 (txmail-likely-leftover Route r-1)", "urn:x", "WARNING");
    let done = false;
    const waiting = p.delivered().then(() => (done = true));
    await until("the line at the engine", () => engine.received.length === 1);
    // The engine has the line but has not answered: not delivered yet.
    await new Promise((r) => setTimeout(r, 100));
    expect(done).toBe(false);
    engine.answerAll();
    await waiting;
    expect(engine.received).toEqual(["likely leftover: Route r-1 (txmail-likely-leftover Route r-1)"]);
  } finally {
    restore();
    engine.close();
  }
});

test("a provider's answer, a failure too, waits for the lines its operation said", async () => {
  let release: (() => void) | undefined;
  let runtime: typeof import("../../../provider/runtime") | undefined;
  jest.isolateModules(() => {
    jest.doMock("../../../provider/core/progress", () => ({
      ...jest.requireActual("../../../provider/core/progress"),
      delivered: () => new Promise<void>((resolve) => (release = resolve)),
    }));
    runtime = require("../../../provider/runtime") as typeof import("../../../provider/runtime");
  });
  const failing = () => Promise.reject(new Error("already exists"));
  const p = runtime!.withLinesDelivered({
    check: failing,
    diff: failing,
    create: failing,
    read: failing,
    update: failing,
    delete: failing,
  });
  let settled = false;
  const answer = p.create({}).then(
    () => (settled = true),
    () => (settled = true),
  );
  await until("the operation's end", () => release !== undefined);
  await new Promise((r) => setTimeout(r, 50));
  expect(settled).toBe(false);
  release!();
  await answer;
  expect(settled).toBe(true);
});
