// Pinning a stack's salt (`txmail:stackSalt`, provider/core/pinnedSalt.ts) to the value its keys
// already use, so that the next plugin upgrade keeps it. The value is in the stack's state: the
// dynamic face's StackSalt resource, or the `__stackSalt` input of the native face's default
// provider. A stack with neither (new, or never deployed) gets a fresh value.
import type { Stack } from "@pulumi/pulumi/automation";
import { PINNED_SALT_CONFIG, newPinnedSalt } from "../../../provider/core/pinnedSalt";
import { dynamicTypeToken, kindOfToken } from "../../../provider/api/typeTokens";
import { STACK_SALT_TYPE } from "./stackSaltType";

/** A dynamic-face txmail resource's type token. */
function isDynamic(type: string): boolean {
  const kind = kindOfToken(type);
  return kind !== undefined && type === dynamicTypeToken(kind);
}

interface StateResource {
  type: string;
  urn: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** The salt a stack's creates use now, and where its state keeps it; undefined for a stack without one. */
export function saltInState(resources: readonly StateResource[]): { salt: string; where: string } | undefined {
  const kept = resources.find((r) => r.type === STACK_SALT_TYPE);
  if (typeof kept?.outputs?.salt === "string") return { salt: kept.outputs.salt, where: "its StackSalt resource" };
  // The dynamic face passes the salt to every resource, whose inputs keep it (a stack pinned from
  // its start has no StackSalt).
  const carried = resources.find((r) => isDynamic(r.type) && typeof r.inputs?.__stackSalt === "string");
  if (carried) return { salt: carried.inputs!.__stackSalt as string, where: "the inputs of its txmail resources" };
  // The default provider serves every resource that names no provider; explicit providers keep
  // their own name across upgrades, and so their own salt.
  const providers = resources.filter((r) => r.type === "pulumi:providers:txmail");
  const byDefault = providers.find((r) => (r.urn.split("::").pop() ?? "").startsWith("default"));
  const salt = (byDefault ?? providers[0])?.inputs?.__stackSalt;
  if (typeof salt !== "string") return undefined;
  return { salt, where: `the input of its provider ${(byDefault ?? providers[0])!.urn.split("::").pop()}` };
}

export type Pinned = { salt: string; source: "already pinned" | "state" | "new"; where?: string };

/** Pins the stack's salt in its configuration unless it is pinned already. */
export async function pinSalt(stack: Stack): Promise<Pinned> {
  const config = await stack.getAllConfig();
  const pinned = config[PINNED_SALT_CONFIG]?.value;
  if (pinned) return { salt: pinned, source: "already pinned" };
  const deployment = (await stack.exportStack()).deployment as { resources?: StateResource[] };
  const found = saltInState(deployment.resources ?? []);
  const salt = found?.salt ?? newPinnedSalt();
  await stack.setConfig(PINNED_SALT_CONFIG, { value: salt });
  return found ? { salt, source: "state", where: found.where } : { salt, source: "new" };
}
