// What a rotating resource keeps besides its current object's outputs: one definition, read by the
// capability (index.ts), the secret marks of both faces, the package schema and the SDK's field lists.
import { z } from "zod";
import type { AnyDeclaration, Rotating } from "../declaration";

/** An output of the previous credential, named after the current one's (`secretKey` → `previousSecretKey`). */
export const previousOf = (output: string): string => `previous${output[0]!.toUpperCase()}${output.slice(1)}`;

/** The previous credential's secret (`previousSecretKey`). */
export const previousSecretOf = (r: Rotating): string => previousOf(r.secret);

/** Each output kept of the previous credential (its secret, then `carried`), by the current one's name. */
export function previousOutputs(r: Rotating): Record<string, string> {
  return Object.fromEntries([r.secret, ...(r.carried ?? [])].map((o) => [o, previousOf(o)]));
}

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

/**
 * The outputs rotation adds to a kind's SDK class (after its declaration's `sdk.outputs`): what a
 * sender needs of the previous credential (`carried` first, then the secret), and when the schedule
 * rotated and next acts. The ids and the count stay in state only.
 */
export function rotationSdkOutputs(declaration: AnyDeclaration): string[] {
  const r = declaration.rotating;
  if (!r) return [];
  return [...[...(r.carried ?? []), r.secret].map(previousOf), "rotatedAt", "nextRotationAt", "previousRevokeAt"];
}

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
    ...Object.fromEntries(
      (declaration.rotating.carried ?? []).map((o) => [
        previousOf(o),
        z.string().optional().describe(`The previous credential's \`${o}\` while it lives.`),
      ]),
    ),
  };
}
