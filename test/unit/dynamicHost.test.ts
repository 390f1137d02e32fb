// The dynamic face says each error once (provider/dynamicHost.ts): the dynamic-provider host's
// printed copy of an error our provider threw is held back, and nothing else the process prints.
// The second test pins what the filter assumes about the host: if a Pulumi upgrade changes which
// calls the host prints, or how, it fails, and dynamicHost.ts must follow.
import * as fs from "node:fs";
import type { Provider } from "../../provider/core/factory";
import { onceInDynamicHost } from "../../provider/dynamicHost";

const OPERATIONS = ["check", "diff", "create", "read", "update", "delete"] as const;

/** A provider whose every operation fails with `<operation> failed`. */
function failing(): Provider {
  return Object.fromEntries(
    OPERATIONS.map((op) => [
      op,
      async () => {
        throw new Error(`${op} failed`);
      },
    ]),
  ) as unknown as Provider;
}

/** What the host does with a failed call: print `${e}: ${e.stack}` (for check, diff, read, delete). */
async function hostCalls(p: Provider, op: (typeof OPERATIONS)[number]): Promise<string> {
  const call = p[op] as (...args: unknown[]) => Promise<unknown>;
  try {
    await call("id", {}, {});
  } catch (e) {
    const line = `${e}: ${(e as Error).stack}`;
    console.error(line);
    return line;
  }
  throw new Error(`${op} did not fail`);
}

it("holds back the host's copy of each error the provider threw, and nothing else", async () => {
  const printed = jest.spyOn(console, "error").mockImplementation(() => undefined);
  try {
    const p = onceInDynamicHost(failing());
    for (const op of ["check", "diff", "read", "delete"] as const) await hostCalls(p, op);
    expect(printed).not.toHaveBeenCalled();

    // The host prints no copy of create and update errors: nothing of theirs is waiting to be held back.
    const created = await hostCalls(p, "create");
    const other = `${new Error("another provider's failure")}: at elsewhere`;
    console.error(other);
    console.error("a program's own line");
    expect(printed.mock.calls).toEqual([[created], [other], ["a program's own line"]]);
  } finally {
    printed.mockRestore();
  }
});

it("the host prints the errors of check, diff, read and delete as dynamicHost.ts assumes, and no others", () => {
  const source = fs.readFileSync(require.resolve("@pulumi/pulumi/cmd/dynamic-provider/index.js"), "utf8");
  // Each RPC method of the host's ResourceProviderService, by name, with its body.
  const bodies = new Map<string, string>();
  const parts = source.split(/\n {4}(?:async )?(\w+)\(call, callback\) \{/);
  for (let i = 1; i + 1 < parts.length; i += 2) bodies.set(parts[i]!, parts[i + 1]!);
  const printsError = (op: string) => bodies.get(op)?.includes("console.error(`${e}: ${e.stack}`)");
  expect(OPERATIONS.filter((op) => bodies.has(op))).toEqual([...OPERATIONS]);
  expect(OPERATIONS.filter(printsError)).toEqual(["check", "diff", "read", "delete"]);
});
