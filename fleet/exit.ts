// How txmail-fleet ends: after what it wrote has left the process. A report on stdout can be large
// (`rotate --json` at 1 000 tenants: ~300 KB), more than a pipe holds at once; `process.exit` at once
// would drop what is still queued, and the reader (jq, a CI step's file) would get half a document.
export function exitWhenWritten(code: number): void {
  // Writes to one stream are flushed in order: when this empty one is, everything before it is.
  process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
}
