// Three resources, the shape of the busy-account report: two sub accounts whose creates are in
// flight together, then a key for one of them once it exists.
import * as txmail from "pulumi-txmail";

const eu = new txmail.SubAccount("eu", { name: "Busy EU", website: "eu.busy.example.com" });
new txmail.SubAccount("us", { name: "Busy US", website: "us.busy.example.com" });
new txmail.SubAccountApiKey("eu-key", { subAccountId: eu.id, label: "eu-app", scopes: ["messages:send:all"] });
