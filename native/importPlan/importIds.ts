// The import id of a listed record, in the form its kind's declaration gives `pulumi import`
// (provider/core/importId.ts), so the plan and the provider's import read agree by construction.
import { uuidImportId } from "../../provider/core/importId";
import { specs } from "../../provider/resources";

export function importIdOf(kind: string, record: Record<string, unknown>): string {
  const spec = specs[kind];
  if (!spec) throw new Error(`txmail-import-plan: unknown kind '${kind}'`);
  return (spec.importId ?? uuidImportId).format(record);
}
