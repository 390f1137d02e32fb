import * as txmail from "pulumi-txmail";

const acme = new txmail.SubAccount("acme", { name: "Acme Corp", website: "acme.example.com" });

// Created with the parent's credentials; authenticates as the sub account.
const sender = new txmail.SubAccountApiKey("acme-sender", {
  subAccountId: acme.id,
  label: "acme sender",
  scopes: ["messages:send:mail.acme.example.com"],
  ipAllowList: ["203.0.113.0/24"],
  rotation: "2026-11", // change to rotate: the new key is created before the old one is deleted
});

export const secretKey = sender.secretKey; // a Pulumi secret
