// The module's old path: declaration.ts holds these now. Kept because `pulumi-txmail/provider/*` is a
// public export (package.json), so programs may import `pulumi-txmail/provider/core/spec`.
export type * from "./declaration";
import type { Declaration } from "./declaration";

/** @deprecated use `Declaration` (from `pulumi-txmail/provider/core/declaration`). */
export type ResourceSpec<I extends Record<string, unknown>> = Declaration<I>;
