// The import id of a listed record, in the form its kind's declaration gives `pulumi import`
// (provider/core/importId.ts), so the plan and the provider's import read agree by construction.
import { uuidImportId } from "../../provider/core/importId";
import { declarationOf } from "../../provider/resources";

export function importIdOf(kind: string, record: Record<string, unknown>): string {
  const declaration = declarationOf(kind);
  if (!declaration) throw new Error(`txmail-import-plan: unknown kind '${kind}'`);
  return (declaration.importId ?? uuidImportId).format(record);
}
