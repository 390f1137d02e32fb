import * as txmail from "pulumi-txmail";

const support = new txmail.Route("support", {
  name: "support",
  url: "https://example.com/hooks/inbound",
  recipient: "support@mail.example.com",
  attachments: true,
});

export const signingSecret = support.secret; // a Pulumi secret
