// What a single-file build of the plugin carries inside itself instead of reading files next to it:
// the package version and the schema. scripts/plugin/bundle.js defines TXMAIL_EMBEDDED at build
// time; run from files (dist/, ts-jest) it is undefined and the files are read as before.
export interface Embedded {
  version: string;
  schema: string;
}

declare const TXMAIL_EMBEDDED: Embedded | undefined;

export const bundled: Embedded | undefined = typeof TXMAIL_EMBEDDED === "undefined" ? undefined : TXMAIL_EMBEDDED;
