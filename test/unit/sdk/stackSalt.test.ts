// The SDK's half of stack-unique idempotency keys: one StackSalt resource per program run, whose
// salt every txmail resource (Tenant children included) passes to its provider as `__stackSalt`.
import * as pulumi from "@pulumi/pulumi";
import { STACK_SALT_TYPE } from "../../../sdk/nodejs/internal/stackSalt";
import * as txmail from "../../../sdk/nodejs";

const registered: Array<{ type: string; name: string; inputs: Record<string, unknown> }> = [];
const SALT = "mocked-salt-of-this-stack";

pulumi.runtime.setMocks(
  {
    newResource: (args) => {
      registered.push({ type: args.type, name: args.name, inputs: args.inputs });
      const state = args.type === STACK_SALT_TYPE ? { salt: SALT } : args.inputs;
      return { id: `${args.name}-id`, state };
    },
    call: (args) => args.inputs,
  },
  "proj",
  "stack",
  false,
);

const settled = (rs: pulumi.CustomResource[]) =>
  Promise.all(rs.map((r) => new Promise((resolve) => r.id.apply(resolve))));

it("registers one StackSalt and hands its salt to every resource", async () => {
  const route = new txmail.Route("r", { name: "support", url: "https://example.com/in" });
  const hook = new txmail.Webhook("w", { name: "events", url: "https://example.com/hooks" });
  const tenant = new txmail.Tenant("acme", { website: "acme.example.com" });
  await settled([route, hook, tenant.subAccount]);
  await new Promise((r) => setTimeout(r, 50)); // the tenant's children register after its sub account
  const salts = registered.filter((r) => r.type === STACK_SALT_TYPE);
  expect(salts).toHaveLength(1);
  const txmailResources = registered.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/txmail:"));
  expect(txmailResources.map((r) => r.type)).toEqual(
    expect.arrayContaining([
      "pulumi-nodejs:dynamic/txmail:Route",
      "pulumi-nodejs:dynamic/txmail:Webhook",
      "pulumi-nodejs:dynamic/txmail:SubAccount",
      "pulumi-nodejs:dynamic/txmail:SubAccountApiKey",
    ]),
  );
  for (const r of txmailResources) expect(r.inputs.__stackSalt).toBe(SALT);
});
