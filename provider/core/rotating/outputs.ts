// What a rotating resource keeps besides its current object's outputs: one definition, read by the
// capability (index.ts), the secret marks of both faces, the package schema and the SDK's field lists.
import { z } from "zod";
import type { AnyDeclaration, Rotating } from "../declaration";

/** The previous credential's secret, named after the current one's (`secretKey` → `previousSecretKey`). */
export const previousSecretOf = (r: Rotating): string => `previous${r.secret[0]!.toUpperCase()}${r.secret.slice(1)}`;

/** Outputs of a rotating resource, with their types and texts (the previous secret's is secretOutputs'). */
export const ROTATION_OUTPUTS = {
  currentId: z
    .string()
    .describe("The id of the current credential at the service (the resource's id names the first)."),
  rotations: z
    .number()
    .int()
    .describe("How many rotations the schedule has made (the next one's number in its idempotency key)."),
  rotatedAt: z.string().describe("When the current credential was made (the service's `created_at`)."),
  nextRotationAt: z.string().describe("When the next `pulumi up` makes a new credential."),
  previousId: z.string().optional().describe("The id of the previous credential while it lives."),
  previousRevokeAt: z
    .string()
    .optional()
    .describe("When the next `pulumi up` revokes the previous credential (absent when there is none)."),
} as const;

/** The secret outputs rotation adds to a declaration (its previous credential's secret). */
export function rotationSecretOutputs(declaration: AnyDeclaration): string[] {
  return declaration.rotating ? [previousSecretOf(declaration.rotating)] : [];
}

/** Every output rotation adds, with its type (the previous secret: a string). */
export function rotationOutputTypes(declaration: AnyDeclaration): Record<string, z.ZodType> {
  if (!declaration.rotating) return {};
  return {
    ...ROTATION_OUTPUTS,
    [previousSecretOf(declaration.rotating)]: z
      .string()
      .optional()
      .describe("The previous credential's secret while it lives (a Pulumi secret): senders not yet moved use it."),
  };
}
