// The package's named types (objects and enums), filled while resources and functions are
// converted. One name, one shape: a second, different type under a taken name is a generator bug
// (two declarations would silently share a type), so it fails loudly instead.
import type { ComplexTypeSpec } from "./pulumiSchema";
import { token, typeRef } from "./tokens";

export class TypeRegistry {
  private readonly byToken = new Map<string, ComplexTypeSpec>();

  /** Registers `spec` as type `name` and returns the reference to it. */
  register(name: string, spec: ComplexTypeSpec): string {
    const existing = this.byToken.get(token(name));
    if (existing && JSON.stringify(existing) !== JSON.stringify(spec)) {
      throw new Error(
        `schema: two different types want the name ${token(name)}:\n${JSON.stringify(existing)}\n${JSON.stringify(spec)}`,
      );
    }
    this.byToken.set(token(name), spec);
    return typeRef(name);
  }

  /** The types by token, sorted so the schema file is stable. */
  types(): Record<string, ComplexTypeSpec> {
    return Object.fromEntries([...this.byToken.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }
}
