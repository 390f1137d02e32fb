// A resource with the ApiKey type token (`pulumi-nodejs:dynamic/txmail:ApiKey`) whose provider accepts
// any input: what the policy pack sees from a key that no txmail check has vetted (an older provider,
// a hand-written resource). The real provider's check rejects allow-all entries before the pack runs,
// so this program is how the tests prove the pack blocks them on its own. Preview only: it never
// creates anything.
import * as pulumi from "@pulumi/pulumi";

const ipAllowList = new pulumi.Config().requireObject<string[]>("ipAllowList");

const unchecked: pulumi.dynamic.ResourceProvider = {
  async check(_olds, news) {
    return { inputs: news };
  },
  async create() {
    throw new Error("this test program is for previews only");
  },
};

class UncheckedKey extends pulumi.dynamic.Resource {
  constructor(name: string, props: Record<string, unknown>) {
    super(unchecked, name, props, undefined, "txmail", "ApiKey");
  }
}

new UncheckedKey("it", { label: "ci", scopes: ["messages:send:mail.example.com"], ipAllowList });
