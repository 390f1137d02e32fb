// What a program would declare for an object that exists (a `pulumi import`): its own inputs that
// the service reports back, read from the object's outputs. Left out: write-only inputs (a DKIM
// key is never shown again), inputs the service does not return (`inputOnly`), and provider-local
// ones (a rotation trigger): a program adds them if it wants them, and diff ignores an input a
// program does not set, so the next `pulumi up` of a program declaring these values is a no-op.
import type { z } from "zod";
import type { ResourceSpec } from "../provider/core/spec";

export function importedInputs(
  spec: ResourceSpec<Record<string, unknown>>,
  outputs: Record<string, unknown>,
): Record<string, unknown> {
  const declared = Object.keys((spec.inputs as unknown as z.ZodObject).shape);
  const hidden = new Set<string>([...(spec.writeOnly ?? []), ...(spec.inputOnly ?? [])]);
  const inputs: Record<string, unknown> = {};
  for (const field of declared) {
    if (!spec.apiFields.includes(field) || hidden.has(field)) continue;
    if (outputs[field] !== undefined && outputs[field] !== null) inputs[field] = outputs[field];
  }
  return inputs;
}
