// A Maven pom's own coordinates, read as XML: the elements directly under <project>, never those of
// its <parent>, dependencies or plugins, whatever the file's indentation, comments or CDATA. The
// release (scripts/release.sh via support/releaseManifest.ts) names the Java SDK by them, and its
// check (support/release.ts) holds the deployed pom to them.

/** The text of each element directly under the document's root element, by name (the first of each). */
function rootChildren(xml: string): Map<string, string> {
  const text = xml
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<\?[\s\S]*?\?>/g, "")
    .replace(/<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>/gi, "");
  const out = new Map<string, string>();
  const open: string[] = [];
  let value = "";
  const tag = /<!\[CDATA\[([\s\S]*?)\]\]>|<(\/?)([A-Za-z_][\w.:-]*)[^>]*?(\/?)>|([^<]+)/g;
  for (let m = tag.exec(text); m; m = tag.exec(text)) {
    const [, cdata, closing, name, selfClosing, chars] = m;
    if (cdata !== undefined || chars !== undefined) {
      if (open.length === 2) value += cdata ?? decode(chars!);
    } else if (closing) {
      if (open.pop() !== name) throw new Error(`not well-formed XML: </${name}> closes <${open.at(-1) ?? ""}>`);
      if (open.length === 1 && !out.has(name!)) out.set(name!, value.trim());
    } else if (!selfClosing) {
      open.push(name!);
      if (open.length === 2) value = "";
    }
  }
  if (open.length > 0) throw new Error(`not well-formed XML: <${open.at(-1)}> is never closed`);
  return out;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, e: string) =>
    e[0] === "#"
      ? String.fromCodePoint(e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : Number(e.slice(1)))
      : (ENTITIES[e] ?? whole),
  );
}

/** The project's groupId, artifactId and version as its pom declares them (undefined where it does not). */
export function pomCoordinates(xml: string): { groupId?: string; artifactId?: string; version?: string } {
  const own = rootChildren(xml);
  return { groupId: own.get("groupId"), artifactId: own.get("artifactId"), version: own.get("version") };
}
