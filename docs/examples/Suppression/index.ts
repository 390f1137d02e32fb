import * as txmail from "pulumi-txmail";

const bounced = new txmail.Suppression("bounced", {
  email: "bounced@example.org",
  domain: "mail.example.com",
  reason: "hard bounce",
  expiresAt: "2030-01-01T00:00:00Z",
});

export const createdAt = bounced.createdAt;
