// What code running in this process writes to stderr while `run` runs: a provider without an engine
// says its progress lines and warnings there (provider/core/progress.ts).
export async function saidOnStderr<T>(run: () => Promise<T>): Promise<{ value: T; text: string }> {
  const lines: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  try {
    return { value: await run(), text: lines.join("") };
  } finally {
    process.stderr.write = write;
  }
}
