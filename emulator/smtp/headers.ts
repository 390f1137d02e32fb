// The two header fields SMTP submission needs from a message (RFC 5322): the From address, which
// the sender's rules check as the API checks `from.email`, and the Subject, stored with the
// message as the API stores `subject`. Nothing else of the message is kept, as for an API send.

export interface Heads {
  /** The From mailbox: its address and display name (decoded); undefined when missing or not one mailbox. */
  from?: { email: string; name: string };
  /** Decoded; "" when absent. */
  subject: string;
}

/** The header section: what comes before the first empty line, unfolded into `name: value` fields. */
function fields(header: string): Map<string, string> {
  const out = new Map<string, string>();
  // Folding (RFC 5322 §2.2.3): a line break followed by white space continues the field.
  const unfolded = header.replace(/\r?\n(?=[ \t])/g, "");
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    // The first occurrence counts; a second From is not a second sender.
    if (!out.has(name)) out.set(name, line.slice(colon + 1).trim());
  }
  return out;
}

/** RFC 2047 encoded words (`=?utf-8?B?…?=`, `=?utf-8?Q?…?=`); a charset Node cannot decode stays as written. */
export function decodeWords(value: string): string {
  // Whitespace between two adjacent encoded words is not part of the text (RFC 2047 §6.2).
  const joined = value.replace(/(=\?[^?\s]+\?[bBqQ]\?[^?\s]*\?=)\s+(?==\?)/g, "$1");
  return joined.replace(/=\?([^?\s]+)\?([bBqQ])\?([^?\s]*)\?=/g, (word, charset: string, enc: string, text: string) => {
    try {
      const bytes =
        enc.toUpperCase() === "B"
          ? Buffer.from(text, "base64")
          : Buffer.from(
              text
                .replace(/_/g, " ")
                .replace(/=([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
              "latin1",
            );
      return new TextDecoder(charset.split("*")[0]!.toLowerCase()).decode(bytes);
    } catch {
      return word;
    }
  });
}

/** One mailbox (`a@b`, `<a@b>`, `Name <a@b>`, `"Name" <a@b>`), or undefined for a group or a list. */
function mailbox(value: string): { email: string; name: string } | undefined {
  const angle = /^([^<>]*)<([^<>\s]+@[^<>\s]+)>\s*$/.exec(value);
  if (angle) {
    const name = decodeWords(angle[1]!.trim()).replace(/^"(.*)"$/, "$1");
    return { email: angle[2]!, name };
  }
  const bare = value.trim();
  return /^[^\s<>,;:"]+@[^\s<>,;:"]+$/.test(bare) ? { email: bare, name: "" } : undefined;
}

/** From and Subject of the header section `header` (the message up to its first empty line). */
export function readHeads(header: string): Heads {
  const f = fields(header);
  const from = f.get("from");
  return { from: from === undefined ? undefined : mailbox(from), subject: decodeWords(f.get("subject") ?? "") };
}

/** The header section of a message's first bytes; undefined while no empty line has arrived. */
export function headerSection(text: string): string | undefined {
  const m = /\r?\n\r?\n/.exec(text);
  return m ? text.slice(0, m.index) : undefined;
}
