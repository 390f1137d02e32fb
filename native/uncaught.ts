// A component's children are registered by promises nobody awaits (Pulumi's resource constructors
// return at once); when one fails — the engine rejects a registration, an input is invalid — the
// error surfaces as an unhandled rejection. Node would end the plugin process on it, and the engine
// would report a crashed plugin instead of the error. While a construct is in flight, such an error
// fails the construct with its own message instead (@pulumi/pulumi's provider server does the same).

type Reject = (err: unknown) => void;
const inFlight = new Set<Reject>();
let installed = false;

function install(): void {
  if (installed) return;
  installed = true;
  const onError = (err: unknown) => {
    if (inFlight.size === 0) {
      // Not ours to explain: keep Node's behaviour (print and exit non-zero).
      process.stderr.write(
        `pulumi-resource-txmail: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
      );
      process.exit(1);
    }
    for (const reject of inFlight) reject(err);
  };
  process.on("uncaughtException", onError);
  process.on("unhandledRejection", onError);
}

/** Runs `fn`; an uncaught error while it runs rejects its promise (every construct in flight). */
export function failOnUncaughtErrors<T>(fn: () => Promise<T>): Promise<T> {
  install();
  return new Promise<T>((resolve, reject) => {
    const fail: Reject = (err) => {
      inFlight.delete(fail);
      reject(err);
    };
    inFlight.add(fail);
    fn().then(
      (v) => {
        inFlight.delete(fail);
        resolve(v);
      },
      (err: unknown) => fail(err),
    );
  });
}
