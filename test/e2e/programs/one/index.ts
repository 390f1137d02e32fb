// One resource whose kind and arguments come from config: `kind` (ApiKey, Route, …) and `args` (JSON).
import * as pulumi from "@pulumi/pulumi";
import * as txmail from "pulumi-txmail";

const cfg = new pulumi.Config();
const kind = cfg.require("kind") as keyof typeof constructors;
const args = cfg.requireObject<Record<string, unknown>>("args");

const constructors = {
  ApiKey: (a: never) => new txmail.ApiKey("it", a),
  SubAccount: (a: never) => new txmail.SubAccount("it", a),
  SubAccountApiKey: (a: never) => new txmail.SubAccountApiKey("it", a),
  Domain: (a: never) => new txmail.Domain("it", a),
  Route: (a: never) => new txmail.Route("it", a),
  Webhook: (a: never) => new txmail.Webhook("it", a),
  SmtpCredential: (a: never) => new txmail.SmtpCredential("it", a),
};

// `unknownAllowList`: the key's allow list depends on another resource's output, so the engine and
// the policy pack see an unknown value at preview.
if (cfg.getBoolean("unknownAllowList")) {
  const other = new txmail.SubAccount("other", { name: "other", website: "other.example.com" });
  args.ipAllowList = [other.id.apply(() => "203.0.113.7")];
}

const made = constructors[kind](args as never);
export const id = made.id;
