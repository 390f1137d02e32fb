// The last stage: a reply becomes bytes on the socket, or the connection is dropped without one.
import type { IncomingMessage, ServerResponse } from "node:http";
import { shapeFor } from "../shapes";
import type { Reply } from "./errors";

/** A fault's answer: close the connection without a reply. */
export const DROP = Symbol("drop the connection");

/** What a stage may answer with: a reply, or no reply at all. */
export type Answer = Reply | typeof DROP;

/** The one place a reply is serialised and written: status, headers, JSON body. */
export function writeReply(res: ServerResponse, reply: Reply): void {
  const text = reply.body === undefined ? "" : JSON.stringify(shapeFor(res, reply.body));
  const headers: Record<string, string | number> = { ...reply.headers };
  if (text) {
    headers["content-type"] = "application/json; charset=utf-8";
  }
  headers["content-length"] = Buffer.byteLength(text);
  res.writeHead(reply.status, headers);
  res.end(text);
}

export function deliver(req: IncomingMessage, res: ServerResponse, answer: Answer): void {
  if (answer === DROP) req.socket.destroy();
  else writeReply(res, answer);
}
