// Likely leftovers: objects that look like something a create made before, which the provider cannot
// prove are this stack's (operations/candidates.ts). They are reported — loudly, as warnings on the
// resource, each with what makes it look related, the exact way to take it or delete it — and never
// touched. The mark at the end lets txmail-fleet count them in its summary (fleet/worker.ts).
import { progress } from "./progress";

/** Ends every report, followed by the kind and the id: `(txmail-likely-leftover ApiKey <id>)`. */
export const LEFTOVER_MARK = "txmail-likely-leftover";

/** The leftovers a message reports, as `<Kind> <id>` (what txmail-fleet counts). */
export function leftoversIn(message: string): string[] {
  const pattern = new RegExp(`\\(${LEFTOVER_MARK} (\\w+) ([^)\\s]+)\\)`, "g");
  return [...message.matchAll(pattern)].map((m) => `${m[1]} ${m[2]}`);
}

export interface Leftover {
  kind: string;
  id: string;
  /** What a person calls it (name, label), if anything. */
  title?: string;
  createdAt?: unknown;
  /** The id `pulumi import` takes for it. */
  importId: string;
  /** Its URL at the service (for a DELETE). */
  url: string;
}

/** The resource's type token and name, from its URN (`urn:pulumi:stack::project::[parent$]type::name`). */
export function typeAndName(urn: string): { type: string; name: string } {
  const parts = urn.split("::");
  const name = parts.slice(3).join("::");
  const type = (parts[2] ?? "").split("$").pop() ?? "";
  return { type, name };
}

/** The report of one likely leftover: why it looks related, that it was left alone, how to take or delete it. */
export function leftoverMessage(leftover: Leftover, why: string, urn: string): string {
  const { type, name } = typeAndName(urn);
  const title = leftover.title ? ` '${leftover.title}'` : "";
  const made = typeof leftover.createdAt === "string" ? `, created ${leftover.createdAt}` : "";
  // `pulumi import` needs a type the engine can read without a program: the native provider's.
  const native = type.startsWith("txmail:")
    ? ` or \`pulumi import ${type} ${name}-leftover ${leftover.importId}\``
    : "";
  return (
    `likely leftover: ${leftover.kind} ${leftover.id}${title}${made} looks like an object this resource made ` +
    `before, but nothing proves it is this stack's (${why}); it was not touched. If it is yours, delete it ` +
    `(DELETE ${leftover.url}${native}); if it belongs to someone else, leave it. ` +
    `(${LEFTOVER_MARK} ${leftover.kind} ${leftover.id})`
  );
}

/** Says each leftover as a warning on the resource `urn`. */
export function reportLeftovers(leftovers: readonly Leftover[], why: string, urn: string): void {
  for (const leftover of leftovers) progress(leftoverMessage(leftover, why, urn), urn, "WARNING");
}
