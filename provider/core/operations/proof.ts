// Proof through the key, after a 422: the key is this resource's creation slot (createKey.ts), so an
// earlier attempt of this very resource — in this stack: the salt is its own — used it with other
// values that change in place. That happens when a run is killed after the service committed a
// create and the program changed before the rerun, or when a resource is removed and added back
// with other values within the record lifetime. Which object, if any, that attempt made, only the
// service can say, and it says it only to the request that attempt sent: the key, the path and the
// same body (rule 2).
//
// So each candidate (same name and fixed fields, made in the last 24 h: candidates.ts), newest
// first, is offered back as that request. Creates are sent in one canonical form (createForm.ts):
// every field explicit, the service's defaults filled in, a stable order, values as the service
// keeps them; so the request an earlier attempt sent to make the candidate is the canonical body
// of the candidate's reported values (the program's only for fields no record shows), whatever
// fields the program added, removed or changed since. A create of 0.1.x sent the program's own
// fields as given; per candidate that form is offered too: the fields the program sets now, and
// the fields the candidate holds away from the service's defaults (a program that left those out).
// The canonical bodies of all candidates go first, then 0.1.x's forms. Each distinct body is sent
// once, across candidates, and never the one just refused; every candidate is tried, the POSTs
// paced by the client's rate limit, not capped by a count.
// If the service replays a creation, the object it names is this stack's — whether or not it is
// the candidate — and is taken over (create.ts); if that object is gone, nothing of this resource
// is left and the next key is safe. A body that was not that request gets another 422 and its
// candidate is left alone. When no candidate is proven, they are reported (leftovers.ts) and never
// touched.
import type { Attempt } from "./answer";
import { send } from "./answer";
import { earlierAttempts, sameNamed } from "./candidates";
import { programBody, reportedFields } from "./createKey";
import { canonicalBody, isDefault, keptAlike, programMayOmit, sentText, storedForm } from "./createForm";
import { identify, identityOf } from "./fetchRecord";
import { camelToSnake } from "../casing";

export type Earlier =
  /** The service answered this stack's key with this object: this stack's, to take over. */
  | { kind: "ours"; record: Record<string, unknown> }
  /** The key's object no longer exists: nothing of this resource is left. */
  | { kind: "gone" }
  /** The key's stored outcome is a failure: that attempt made nothing. */
  | { kind: "madeNothing" }
  /** Nothing proven: the candidates are reported, never touched. */
  | { kind: "unproven"; candidates: Record<string, unknown>[]; why: string };

export async function proveEarlierAttempt(attempt: Attempt, key: string): Promise<Earlier> {
  const found = await earlierAttempts(attempt);
  // Reported, if nothing is proven: those with the program's name only (candidates.ts sameNamed).
  const unproven = (candidates: Record<string, unknown>[], why: string): Earlier => ({
    kind: "unproven",
    candidates: sameNamed(attempt, candidates),
    why,
  });
  const offered = new Set<string>([sentText(attempt.body)]); // the program's own body was refused
  const rebuilt = found.map((candidate) => rebuiltBodies(attempt, candidate));
  // Candidates with the program's name first (the likeliest; the name may have changed in place
  // since), and within each group this version's canonical bodies before 0.1.x's forms.
  const named = new Set(sameNamed(attempt, found));
  const group = (keep: boolean) => rebuilt.filter((_, i) => named.has(found[i]!) === keep);
  const offers = [true, false].flatMap((keep) => [
    ...group(keep).map((r) => r.canonical),
    ...group(keep).flatMap((r) => r.given),
  ]);
  for (const body of offers) {
    const text = sentText(body);
    if (offered.has(text)) continue;
    offered.add(text);
    const answer = await send(attempt, body, key);
    switch (answer.kind) {
      case "replayed":
      case "created": // the record expired meanwhile and the request ran afresh, under this stack's key
        return (await exists(attempt, attempt.k.idOf(answer.record), answer.record))
          ? { kind: "ours", record: answer.record }
          : { kind: "gone" };
      case "storedFailure":
        return { kind: "madeNothing" };
      case "otherPayload":
        continue;
      case "secretExpired":
        return unproven(
          found.filter((_, i) => [rebuilt[i]!.canonical, ...rebuilt[i]!.given].some((b) => sentText(b) === text)),
          "this stack's idempotency key created an object with exactly these values, but its answer carried a " +
            "secret the service replays for 5 minutes only, so it no longer says which object",
        );
      case "nameTaken":
      case "refused":
        return unproven(found, "the service refused the rebuilt request, so it did not say which object the key made");
    }
  }
  return unproven(
    found,
    "none was the request an earlier attempt sent under this stack's key (another stack's, or made by an older " +
      "provider with fields the program no longer sets)",
  );
}

/**
 * The requests an earlier attempt may have sent to make `candidate`, most likely first: the
 * canonical body of its values (this version's creates), then the two forms of 0.1.x's — the
 * fields the program sets now, and those without the ones a program may leave out that the candidate
 * holds at the service's defaults.
 */
export function rebuiltBodies(
  attempt: Attempt,
  candidate: Record<string, unknown>,
): { canonical: Record<string, unknown>; given: Record<string, unknown>[] } {
  const { k, inputs } = attempt;
  const { declaration } = k;
  const outputs = k.outputsOf(candidate);
  const reported = new Set(reportedFields(declaration));
  // The candidate's values; the program's where no record shows them (write-only, input-only).
  const values: Record<string, unknown> = {};
  for (const f of declaration.apiFields) {
    values[f] = reported.has(f) && outputs[f] !== undefined ? outputs[f] : inputs[f];
  }
  const canonical = canonicalBody(declaration, values);
  // 0.1.x sent values as the program gave them: the program's spelling where the service keeps it alike.
  const given = (f: string): unknown => {
    const name = camelToSnake(f);
    if (keptAlike(declaration, name, inputs[f], values[f])) return inputs[f];
    return storedForm(declaration, name, values[f]) === undefined ? undefined : values[f];
  };
  const programs: Record<string, unknown> = {};
  const leftToService: Record<string, unknown> = {};
  for (const [name] of Object.entries(programBody(declaration, inputs))) programs[name] = undefined;
  for (const f of declaration.apiFields) {
    const name = camelToSnake(f);
    const value = given(f);
    if (value === undefined) continue;
    if (name in programs) programs[name] = value;
    if (!(programMayOmit(declaration, f) && isDefault(declaration, name, value))) leftToService[name] = value;
  }
  return { canonical, given: [dropUnset(programs), leftToService] };
}

const dropUnset = (body: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));

/**
 * The object the key made (`made`: the service's record of it) exists and still counts as one (a
 * soft-deleted sub account does not). Another object in its place is not it (`attempt.displacedBy`).
 */
export async function exists(attempt: Attempt, id: string, made: Record<string, unknown>): Promise<boolean> {
  const { k, ctx, inputs } = attempt;
  const found = await identify(k, ctx, { ...inputs, ...identityOf(k, made) }, id);
  if (found.kind === "another") attempt.displacedBy = found.record;
  const record = found.kind === "this" ? found.record : undefined;
  const { listing } = k.declaration;
  return record !== undefined && (!listing.listed || !listing.live || listing.live(record, Date.now()));
}
