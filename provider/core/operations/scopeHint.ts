// Wraps a service call so a 403 says which of its two causes it is (core/forbidden.ts): the scope
// the operation needs, or the key's allow list shutting out this machine.
import { isForbidden } from "../api";
import { explainForbidden, forbiddenCause, keyInUse } from "../forbidden";
import type { Props } from "../declaration";
import { type KindContext, connect } from "./context";

export type Operation = "read" | "write" | "delete";

export async function withScopeHint<T>(k: KindContext, op: Operation, props: Props, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isForbidden(err)) {
      const { declaration } = k;
      const needed = declaration.scopes[op](props).join(" or ");
      const { api } = connect(k, props);
      const cause = await forbiddenCause(api);
      const also = cause === "scope" ? declaration.forbiddenAlso?.[op] : undefined;
      const message =
        explainForbidden(
          (err as Error).message,
          cause,
          `${declaration.kind} ${op}`,
          keyInUse(props.connection),
          needed,
        ) + (also ? ` ${also}` : "");
      // Keeps the client's classification, so callers still branch on kind, replayed and retried.
      const { kind, replayed, retried } = err as { kind?: unknown; replayed?: unknown; retried?: unknown };
      throw Object.assign(new Error(message), { kind, replayed, retried, cause });
    }
    throw err;
  }
}
