// Request bodies: bounded reads and strict JSON parsing.
import type { IncomingMessage } from "node:http";
import { HttpError, badRequest } from "./errors";

/** Large enough for messages with attachments; anything bigger is a 413. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on("data", (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > limit) {
        failed = true;
        reject(new HttpError(413, `request body exceeds ${limit} bytes`));
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => {
      if (!failed) resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
    req.on("error", (e) => {
      if (!failed) {
        failed = true;
        reject(e);
      }
    });
  });
}

/** Parses a JSON body; the content type must be JSON and the text well formed. */
export function parseJson(raw: Buffer, contentType: string | undefined): unknown {
  if (raw.length === 0) throw badRequest("request body is required (a JSON object)");
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json") throw badRequest("Content-Type must be application/json");
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch (e) {
    throw badRequest(`malformed JSON body: ${(e as Error).message}`);
  }
}
