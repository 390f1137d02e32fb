import * as txmail from "pulumi-txmail";

const alice = new txmail.AccountMember("alice", {
  email: "alice@example.com",
  name: "Alice",
  role: txmail.Role.Developer,
});

export const userId = alice.userId;
