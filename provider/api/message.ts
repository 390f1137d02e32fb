// Message sending (docs/contract/endpoints/messages.md: the conversation message, create message, the
// message creation response). Request bodies are strict, like every request schema; rules that need the server's
// clock (schedule windows) or the account's domains (sender) are checked by the service.
import { z } from "zod";
import { Timestamp } from "./common";
import { A, create } from "./endpoint";

export const Address = z.strictObject({
  email: z.email(),
  name: z.string().max(255).optional(),
});
export type Address = z.infer<typeof Address>;

export const Attachment = z.strictObject({
  data: z.string(),
  content_type: z.string().min(1),
  file_name: z.string().min(1),
  base64: z.boolean().optional(),
  content_disposition: z.string().optional(),
  content_id: z.string().optional(),
});
export type Attachment = z.infer<typeof Attachment>;

export const Tracking = z.strictObject({ open: z.boolean().nullish(), click: z.boolean().nullish() }).nullable();
export const Retention = z
  .strictObject({
    metadata: z.number().int().min(1).max(30).optional(),
    data: z.number().int().min(0).max(30).optional(),
  })
  .nullable();
/** first_attempt: future, within 7 days; expires: future, within 8 days (checked against the server clock). */
export const MessageSchedule = z.strictObject({ first_attempt: Timestamp.optional(), expires: Timestamp.optional() });
export const SandboxResult = z.enum(["deliver", "bounce", "defer", "fail", "suppress"]);

export const MAX_CONVERSATION_RECIPIENTS = 50;
export const MAX_MESSAGE_RECIPIENTS = 100;

const recipientsArray = (what: string) =>
  z
    .array(Address)
    .min(1, `${what} needs 1 to 50 addresses`)
    .max(MAX_CONVERSATION_RECIPIENTS, `${what} needs 1 to 50 addresses`);

const common = {
  from: Address,
  subject: z.string().min(1),
  text_content: z.string().optional(),
  html_content: z.string().optional(),
  amp_content: z.string().optional(),
  attachments: z.array(Attachment).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  tags: z.array(z.string()).optional(),
  sandbox: z.boolean().optional(),
  sandbox_result: SandboxResult.optional(),
  tracking: Tracking.optional(),
  retention: Retention.optional(),
  schedule: MessageSchedule.optional(),
  reply_to: Address.optional(),
};

type Common = { text_content?: string; html_content?: string; headers?: Record<string, string>; reply_to?: unknown };

function contentAndHeaders(v: Common & { cc?: unknown }, ctx: z.RefinementCtx): void {
  if (!v.text_content && !v.html_content) {
    ctx.addIssue({ code: "custom", path: ["text_content"], message: "text_content or html_content is required" });
  }
  const names = Object.keys(v.headers ?? {}).map((h) => h.toLowerCase());
  if (v.cc !== undefined && names.includes("cc")) {
    ctx.addIssue({ code: "custom", path: ["headers"], message: "must not hold a 'cc' entry when cc is given" });
  }
  if (v.reply_to !== undefined && names.includes("reply-to")) {
    ctx.addIssue({
      code: "custom",
      path: ["headers"],
      message: "must not hold a 'reply-to' entry when reply_to is given",
    });
  }
}

export const CreateConversationMessage = z
  .strictObject({
    ...common,
    to: recipientsArray("to"),
    cc: recipientsArray("cc").optional(),
    bcc: recipientsArray("bcc").optional(),
  })
  .superRefine((v, ctx) => {
    contentAndHeaders(v, ctx);
    const n = v.to.length + (v.cc?.length ?? 0) + (v.bcc?.length ?? 0);
    if (n > MAX_CONVERSATION_RECIPIENTS) {
      ctx.addIssue({
        code: "custom",
        path: ["to"],
        message: `to, cc and bcc together hold ${n} recipients; at most 50 are allowed`,
      });
    }
  });
export type CreateConversationMessage = z.infer<typeof CreateConversationMessage>;

export const MessageRecipient = z.strictObject({
  email: z.email(),
  name: z.string().max(255).optional(),
  substitutions: z.record(z.string(), z.unknown()).optional(),
});

export const CreateMessage = z
  .strictObject({
    ...common,
    recipients: z.array(MessageRecipient).min(1).max(MAX_MESSAGE_RECIPIENTS, "at most 100 recipients per request"),
    substitutions: z.record(z.string(), z.unknown()).optional(),
  })
  .superRefine(contentAndHeaders);
export type CreateMessage = z.infer<typeof CreateMessage>;

export const MessageItem = z.object({
  object: z.literal("message"),
  /** `null` for a recipient that was not sent to (with `status: "error"` and the reason in `error`). */
  id: z.string().nullable(),
  recipient: z.object({ email: z.string(), name: z.string() }),
  status: z.string(),
  error: z.string().nullable(),
});
export type MessageItem = z.infer<typeof MessageItem>;

/** 202 of both send endpoints: one item per recipient. */
export const MessageCreationResponse = z.object({ object: z.literal("list"), data: z.array(MessageItem) });
export type MessageCreationResponse = z.infer<typeof MessageCreationResponse>;

export const messageEndpoints = {
  sendMessage: create(`${A}/messages`, CreateMessage, MessageCreationResponse),
  sendConversationMessage: create(`${A}/messages/conversation`, CreateConversationMessage, MessageCreationResponse),
} as const;
