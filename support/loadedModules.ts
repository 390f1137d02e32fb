// What a fresh Node process has loaded after running `code`: the files in its require cache. For
// tests that keep heavy modules off a start-up path (the SDK's import, the plugin's start).
import { execFileSync } from "node:child_process";
import { REPO_ROOT } from "./root";

export function modulesLoadedBy(code: string): string[] {
  const out = execFileSync(
    process.execPath,
    ["-e", `${code}; console.log(JSON.stringify(Object.keys(require.cache)))`],
    {
      cwd: REPO_ROOT,
      encoding: "utf8",
    },
  );
  return JSON.parse(out) as string[];
}
