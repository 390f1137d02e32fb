// A TXT record's text in zone-file syntax (RFC 1035 §5.1), as DNS teams and DNS servers take it: one
// or more quoted character-strings of at most 255 bytes each, `"` and `\` escaped, bytes outside
// printable ASCII as \DDD. A domain's DKIM key is longer than one string holds. Used by the
// fleet's zone fragment (fleet/dns/zone.ts) and the tests' DNS server and DNS provider (support/).

/** The most bytes one character-string holds. */
export const TXT_STRING_MAX = 255;

/** `value` as quoted character-strings, split every TXT_STRING_MAX bytes (an empty text is one empty string). */
export function txtStrings(value: string): string {
  const octets = Buffer.from(value, "utf8");
  const strings: string[] = [];
  for (let at = 0; at === 0 || at < octets.length; at += TXT_STRING_MAX) {
    strings.push(quoted(octets.subarray(at, at + TXT_STRING_MAX)));
  }
  return strings.join(" ");
}

function quoted(octets: Uint8Array): string {
  let out = '"';
  for (const b of octets) {
    if (b === 0x22 || b === 0x5c) out += `\\${String.fromCharCode(b)}`;
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += `\\${String(b).padStart(3, "0")}`;
  }
  return `${out}"`;
}

/** The text of quoted character-strings: joined, escapes undone (the inverse of txtStrings). */
export function txtText(content: string): string {
  const bytes: number[] = [];
  let inside = false;
  for (let i = 0; i < content.length; i++) {
    const c = content[i]!;
    if (c === '"') inside = !inside;
    else if (!inside)
      continue; // the spaces between character-strings
    else if (c === "\\" && /^\d{3}$/.test(content.slice(i + 1, i + 4))) {
      bytes.push(Number(content.slice(i + 1, i + 4)));
      i += 3;
    } else if (c === "\\") bytes.push(...Buffer.from(content[++i] ?? "", "utf8"));
    else bytes.push(...Buffer.from(c, "utf8"));
  }
  return Buffer.from(bytes).toString("utf8");
}
