// The ids people type after `pulumi import <type> <name>`, per kind. Most objects are imported by
// their uuid, as the service and its dashboard show it. Two kinds need more than the uuid to be
// addressed, and a domain is known by its name (the service's paths take the name, not the uuid):
//   Domain            mail.example.com
//   SubAccountApiKey  <subAccountId>/<keyId>     (the key lives under its sub account's path)
//   AccountMember     <email>/<userId>           (the member record carries no email; the resource needs it)
// An object inside a sub account is imported with an explicit provider configured for that sub
// account (`pulumi import … --provider <name>=<urn>`): the service serves a sub account's objects
// only to the sub account's own key, so an account id in the import id alone could not reach them.
import { Uuid } from "../api/common";
import type { ImportIdForm, Props } from "./declaration";

const isUuid = (s: string) => Uuid.safeParse(s).success;

/** The default: the object's uuid. */
export const uuidImportId: ImportIdForm = {
  syntax: "<id>",
  format: (r) => String(r.id),
  parse: (text) =>
    isUuid(text) ? { id: text, props: {} } : { problem: "must be the object's id (8-4-4-4-12 hexadecimal digits)" },
};

/** `<first>/<uuid>`, where the part before the slash becomes the input `field`. */
export function pairImportId(opts: {
  syntax: string;
  field: string;
  /** The record's value for `field` (what the plan writes before the slash). */
  fieldOf(record: Record<string, unknown>): unknown;
  /** The record's own id (after the slash). */
  idOf(record: Record<string, unknown>): unknown;
  /** Why the part before the slash is not acceptable, if it is not. */
  firstProblem(first: string): string | undefined;
  /** The input's canonical form (what check would make of it; state keeps that form). */
  normalize?(first: string): string;
}): ImportIdForm {
  return {
    syntax: opts.syntax,
    format: (r) => `${String(opts.fieldOf(r))}/${String(opts.idOf(r))}`,
    parse(text) {
      const slash = text.lastIndexOf("/");
      const first = text.slice(0, Math.max(slash, 0));
      const id = text.slice(slash + 1);
      if (slash < 0 || first === "" || !isUuid(id)) return { problem: `must be ${opts.syntax}` };
      const problem = opts.firstProblem(first);
      return problem
        ? { problem: `must be ${opts.syntax}: ${problem}` }
        : { id, props: { [opts.field]: opts.normalize ? opts.normalize(first) : first } };
    },
  };
}

/** Says what is wrong with an import id, naming the kind, the id and the form it takes. */
export function parseImportId(kind: string, form: ImportIdForm, text: string): { id: string; props: Props } {
  const parsed = form.parse(text.trim());
  if ("problem" in parsed) throw new Error(`${kind} import id '${text}': ${parsed.problem}`);
  return parsed;
}
