import * as txmail from "pulumi-txmail";

const events = new txmail.Webhook("events", {
  name: "events",
  url: "https://example.com/hooks/events",
  onBounced: true,
  onFailed: true,
  scope: txmail.Scope.Scoped,
  domains: ["mail.example.com"],
});

export const signingSecret = events.secret; // a Pulumi secret
