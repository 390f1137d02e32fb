// `pulumi import` (and the `import` resource option): the engine's Read without prior state. The
// object is read by the generic provider's own read (same fetch, same outputs, same 403 messages),
// addressed by the kind's import id (importId.ts), and the inputs a program would declare for it
// are derived from what the service reports, in check's canonical form. The engine generates the
// program's code from those inputs and compares later `pulumi up`s against them, so they must be
// exactly what check makes of that code: the next `pulumi up` is then a no-op.
import type { z } from "zod";
import type { Provider } from "./factory";
import { parseImportId, uuidImportId } from "./importId";
import type { AnyDeclaration, ImportIdForm, Props } from "./declaration";

export interface Imported {
  /** The Pulumi id, as a create would have recorded it. */
  id: string;
  /** The outputs state keeps (one-time secrets empty: the service shows them only at creation). */
  props: Props;
  /** What a program declares for this object. */
  inputs: Props;
  /** Said in the import's output under the resource (one-time secrets that cannot be imported). */
  warnings: string[];
}

export async function readForImport(
  declaration: AnyDeclaration,
  provider: Pick<Provider, "read">,
  importId: string,
): Promise<Imported | undefined> {
  const form: ImportIdForm = declaration.importId ?? uuidImportId;
  const { id, props } = parseImportId(declaration.kind, form, importId);
  const read = await provider.read(id, props);
  if (!read.id || !read.props) return undefined;
  const inputs = declaredInputs(declaration, read.props);
  return { id: read.id, props: { ...read.props, ...inputs }, inputs, warnings: oneTimeSecretWarnings(declaration) };
}

/**
 * The inputs of a program that declares this object as it is: every input the service reports
 * (write-only ones never are), in the form state keeps them, which is check's canonical form. An
 * object check would refuse as reported (a suspended sub account, whose reason the service does not
 * report) gets them all the same, so check names the missing field when the program is run.
 */
export function declaredInputs(declaration: AnyDeclaration, state: Props): Props {
  const shape = (declaration.inputs as unknown as z.ZodObject).shape as Record<string, unknown>;
  const writeOnly = new Set<string>(declaration.writeOnly ?? []);
  const reported: Props = {};
  for (const key of Object.keys(shape)) {
    const value = state[key];
    if (writeOnly.has(key) || value === undefined || value === null) continue;
    reported[key] = value;
  }
  return reported;
}

/** One-time secrets the import cannot bring along, and how to get one under management. */
function oneTimeSecretWarnings(declaration: AnyDeclaration): string[] {
  return Object.keys(declaration.createOnly ?? {}).map(
    (output) =>
      `${declaration.kind}: '${output}' is shown by the service only when the object is created, so the imported ` +
      `state holds it empty. To have one under management, replace the object: \`pulumi up --replace <urn>\`` +
      (declaration.renewsSecrets ? ` (or change its \`${declaration.renewsSecrets}\`)` : "") +
      `, then move its users to the new ${output}.`,
  );
}
