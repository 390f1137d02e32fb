// The dynamic-provider host (@pulumi/pulumi's cmd/dynamic-provider) answers the engine with the
// error of a failed check, diff, read or delete *and* prints it, `${err}: ${err.stack}`, on its
// stderr. The engine reports the answer on the resource and the printed copy, stack trace and all,
// on the stack: one error, said twice (issue 30: "each error once"). The report on the resource is
// where a user looks; so the host's printed copy of an error this provider threw is held back.
// Nothing else the process prints is touched, including the errors of other dynamic providers the
// same program may use. test/unit/dynamicHost.test.ts checks the host still prints this way.
import type { Provider } from "./core/factory";

/** The lines the host would print for the errors we threw and have not seen printed yet. */
const thrown = new Set<string>();
let installed = false;

/** The line the host prints for an error (its catch blocks: console.error(`${e}: ${e.stack}`)). */
export const hostLine = (e: Error): string => `${String(e)}: ${e.stack}`;

function holdBackHostCopies(): void {
  if (installed) return;
  installed = true;
  const print = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    if (args.length === 1 && typeof args[0] === "string" && thrown.delete(args[0])) return;
    print(...args);
  };
}

function reported<A extends unknown[], R>(fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await fn(...args);
    } catch (e) {
      if (e instanceof Error) thrown.add(hostLine(e));
      throw e;
    }
  };
}

/** The provider as the dynamic face serves it: each error it throws is said once, on its resource. */
export function onceInDynamicHost(p: Provider): Provider {
  holdBackHostCopies();
  // create and update errors reach the engine without a printed copy; these four are printed.
  return {
    ...p,
    check: reported(p.check),
    diff: reported(p.diff),
    read: reported(p.read),
    delete: reported(p.delete),
  };
}
