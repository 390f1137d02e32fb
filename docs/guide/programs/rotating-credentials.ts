// A key that rotates every 30 days, the previous one live for 7 more (docs/guide/rotating-credentials.md).
import * as txmail from "pulumi-txmail";

const sender = new txmail.ApiKey("sender", {
  label: "acme sender",
  scopes: ["messages:send:all"],
  rotation: { every: "30d", overlap: "7d" },
});

// What the senders read (stack outputs here; a secret manager or Pulumi ESC the same way).
export const secretKey = sender.secretKey; // the current key (a secret)
export const previousSecretKey = sender.previousSecretKey; // the previous key while it lives (a secret)
export const nextRotationAt = sender.nextRotationAt;
export const previousRevokeAt = sender.previousRevokeAt;
