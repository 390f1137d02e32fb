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
import { TOOLS_DIR } from "./harness";

const run = promisify(execFile);

test("pulumi schema check accepts the generated schema", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-schema-"));
  try {
    const file = path.join(dir, "schema.json");
    fs.writeFileSync(file, schemaText());
    const env = { ...process.env, PULUMI_HOME: path.join(dir, ".pulumi"), PULUMI_SKIP_UPDATE_CHECK: "true" };
    const result = await run(path.join(TOOLS_DIR, "bin", "pulumi"), ["schema", "check", file], { env, cwd: dir }).then(
      (r) => ({ code: 0, output: r.stdout + r.stderr }),
      (e: { code?: number; stdout?: string; stderr?: string }) => ({
        code: e.code ?? 1,
        output: `${e.stdout ?? ""}${e.stderr ?? ""}`,
      }),
    );
    expect(result).toEqual({ code: 0, output: "" });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
