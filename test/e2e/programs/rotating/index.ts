// One API key on a rotation schedule, with what a sender reads from the stack's outputs.
import * as txmail from "pulumi-txmail";

const sender = new txmail.ApiKey("sender", {
  label: "rotating sender",
  scopes: ["messages:send:all"],
  rotation: { every: "30d", overlap: "7d" },
});

export const keyId = sender.id;
export const secretKey = sender.secretKey;
export const previousSecretKey = sender.previousSecretKey;
export const rotatedAt = sender.rotatedAt;
export const nextRotationAt = sender.nextRotationAt;
export const previousRevokeAt = sender.previousRevokeAt;
