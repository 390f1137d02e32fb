// The SDK's named types for what some kinds' classes expose: the outputs a kind reshapes from the
// service record (its declaration's `outputsOf`), typed here by name rather than as the record's
// schema gives them, and the types programs use beside the classes. A kind with none needs nothing
// here: `ReshapedOf` is `unknown` for it (the classes are generated: tools/codegen/classes.ts).
import type { z } from "zod";
import type { accountMember } from "../../provider/resources/accountMember";
import type { WebhookEventInput, webhook } from "../../provider/resources/webhook";
import type { WebhookFields } from "./generated/fields";
import type { ArgsOf } from "./internal/declared";

/** A DNS record to publish for the domain. */
export interface DnsRecord {
  type: string;
  host: string;
  value: string;
  required: boolean;
  propagated: boolean;
  label?: string;
}

/**
 * The ten event flags (all default false). Webhook's arguments as its generated class declares them
 * (webhook.ts: WebhookArgs), spelled from the same parts: the class imports this file's types, so
 * importing the class back would tie the two into a circle.
 */
export type WebhookEvents = Pick<ArgsOf<typeof webhook, WebhookFields>, WebhookEventInput>;

export type MemberRole = z.output<typeof accountMember.inputs>["role"];

/** Outputs the provider reshapes from the service record (each declaration's `outputsOf`), by kind. */
interface Reshaped {
  Domain: { dnsRecords: DnsRecord[] };
  DomainVerification: { dnsRecords: DnsRecord[]; verified: boolean };
  /** The service reports "every domain" and "no reason" as null; the provider leaves them unset. */
  Suppression: { domain: string | undefined; reason: string | undefined };
}

/** The reshaped outputs' types of `kind` (unknown: none). */
export type ReshapedOf<K extends string> = K extends keyof Reshaped ? Reshaped[K] : unknown;
