import * as txmail from "pulumi-txmail";

const acme = new txmail.SubAccount("acme", {
  name: "Acme Corp",
  website: "acme.example.com",
  monthlyCredit: 10000,
});

export const subAccountId = acme.id;
export const status = acme.status;
