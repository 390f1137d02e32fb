// The README's first TypeScript example, which e2e tests run as written.
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "./harness";

/** The first ```ts block of README.md, verbatim. */
export function readmeExample(): string {
  const block = /```ts\n([\s\S]*?)```/.exec(fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8"));
  if (!block) throw new Error("README.md has no ```ts block");
  return block[1]!;
}
