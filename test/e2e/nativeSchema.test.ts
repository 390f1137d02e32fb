// The generated package schema, checked by Pulumi itself: `pulumi schema check` (the project's
// CLI) validates it against Pulumi's metaschema and binds it as SDK generation and the YAML host
// would (types, references, tokens). The generated text is checked, not the committed file, so a
// generator bug fails here even before anyone regenerates.
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { schemaText } from "../../native/schema/packageSchema";
import { REPO_ROOT, TOOLS_DIR } from "./harness";

const run = promisify(execFile);

/** `pulumi schema check <source>` in a scratch PULUMI_HOME: its exit code and everything it printed. */
async function schemaCheck(source: (dir: string) => string): Promise<{ code: number; output: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-schema-"));
  try {
    const env = { ...process.env, PULUMI_HOME: path.join(dir, ".pulumi"), PULUMI_SKIP_UPDATE_CHECK: "true" };
    return await run(path.join(TOOLS_DIR, "bin", "pulumi"), ["schema", "check", source(dir)], { env, cwd: dir }).then(
      (r) => ({ code: 0, output: r.stdout + r.stderr }),
      (e: { code?: number; stdout?: string; stderr?: string }) => ({
        code: e.code ?? 1,
        output: `${e.stdout ?? ""}${e.stderr ?? ""}`,
      }),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test("pulumi schema check accepts the generated schema", async () => {
  const result = await schemaCheck((dir) => {
    fs.writeFileSync(path.join(dir, "schema.json"), schemaText());
    return path.join(dir, "schema.json");
  });
  expect(result).toEqual({ code: 0, output: "" });
}, 60_000);

test("pulumi schema check accepts what the txmail plugin serves (GetSchema, from dist/)", async () => {
  const result = await schemaCheck(() => path.join(REPO_ROOT, "bin", "pulumi-resource-txmail"));
  expect(result).toEqual({ code: 0, output: "" });
}, 60_000);
