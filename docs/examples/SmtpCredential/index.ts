import * as txmail from "pulumi-txmail";

const app = new txmail.SmtpCredential("app", {
  name: "app",
  scope: txmail.Scope.Scoped,
  domains: ["mail.example.com"],
});

export const username = app.username;
export const password = app.password; // a Pulumi secret
