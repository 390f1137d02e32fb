// Method + path template lookup of the emulator's endpoints. Literal segments beat parameters
// (`/sub-accounts/usage` is not a sub account id); a path that matches a template under another
// method is a 405.
import { badRequest } from "./errors";

export interface Match<E> {
  endpoint: E;
  template: string;
  params: Record<string, string>;
}

export type Lookup<E> = Match<E> | { status: 404 } | { status: 405; allow: string[] };

interface Entry<E> {
  method: string;
  template: string;
  segments: string[];
  endpoint: E;
}

export class EndpointTable<E> {
  private readonly entries: Entry<E>[] = [];

  add(method: string, template: string, endpoint: E): void {
    this.entries.push({ method, template, segments: template.split("/").slice(1), endpoint });
  }

  templates(): { method: string; template: string }[] {
    return this.entries.map((e) => ({ method: e.method, template: e.template }));
  }

  match(method: string, path: string): Lookup<E> {
    const raw = path.split("/").slice(1);
    let segs: string[];
    try {
      segs = raw.map((s) => decodeURIComponent(s));
    } catch {
      throw badRequest("malformed percent-encoding in the path");
    }
    // The most specific template wins across methods: DELETE /sub-accounts/usage is a 405, not an id.
    const matching: { e: Entry<E>; score: string }[] = [];
    for (const e of this.entries) {
      if (e.segments.length !== segs.length) continue;
      let score = "";
      let ok = true;
      for (let i = 0; i < segs.length && ok; i++) {
        const t = e.segments[i]!;
        if (t.startsWith("{")) {
          ok = segs[i] !== "";
          score += "0";
        } else if (t === segs[i]) score += "1";
        else ok = false;
      }
      if (ok) matching.push({ e, score });
    }
    if (matching.length === 0) return { status: 404 };
    const top = matching.reduce((m, x) => (x.score > m ? x.score : m), "");
    const atTop = matching.filter((x) => x.score === top);
    const hit = atTop.find((x) => x.e.method === method);
    if (!hit) return { status: 405, allow: [...new Set(atTop.map((x) => x.e.method))].sort() };
    const params: Record<string, string> = {};
    hit.e.segments.forEach((t, i) => {
      if (t.startsWith("{")) params[t.slice(1, -1)] = segs[i]!;
    });
    return { endpoint: hit.e.endpoint, template: hit.e.template, params };
  }
}
