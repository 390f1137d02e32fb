// The `pulumi import --file` document for the collected objects: the native type token, a unique
// readable name, the import id; and, for objects inside a sub account, the explicit provider that
// holds the sub account's key (named in the file's name table by its URN).
import { nativeTypeToken } from "../../provider/api/typeTokens";
import type { Importable } from "./collect";
import { slug, uniqueNamer } from "./names";

export interface ImportFile {
  nameTable?: Record<string, string>;
  resources: ImportSpec[];
}

export interface ImportSpec {
  type: string;
  name: string;
  id: string;
  provider?: string;
}

/** An explicit provider already in the stack: its name in the file and its URN. */
export interface ProviderRef {
  name: string;
  urn: string;
}

export function importPlan(found: readonly Importable[], provider?: ProviderRef): ImportFile {
  const nameOf = uniqueNamer();
  if (provider) nameOf(provider.name); // the name table's entry is a name of the file too
  const resources = found.map((o): ImportSpec => ({
    type: nativeTypeToken(o.kind),
    name: nameOf(slug(o.title, o.kind.toLowerCase())),
    id: o.importId,
    ...(provider ? { provider: provider.name } : {}),
  }));
  return provider ? { nameTable: { [provider.name]: provider.urn }, resources } : { resources };
}
