// A preview that passes means an up that can run: the provider configuration (stack config,
// environment, a resource's `connection`) is checked at preview, each message naming the setting and
// the rule, without calling the service (the emulator's counters stay at zero: preview cannot write,
// and the check does not even read). And each error is said once, in every face, where the user
// looks first: on the resource (or provider) it concerns, or on the stack when it concerns the
// whole program.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { DiagnosticEvent } from "@pulumi/pulumi/automation";
import { createTestStack, type Face, type TestStack } from "./harness";
import { startService, type TestService } from "../../support/service";
import { controlClient } from "../../support/control";
import { NATIVE_DEFAULT_PROVIDER } from "../../support/plugin";

jest.setTimeout(10 * 60_000);

const route = { name: "in", url: "https://example.com/in", recipient: "in@mail.example.com" };

let svc: TestService;
const stacks: TestStack[] = [];

beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  for (const s of stacks) await s.dispose();
  await svc?.close();
});

async function stack(config: Record<string, string | undefined>, env: Record<string, string> = {}, face?: Face) {
  const good = svc.config();
  const merged = Object.fromEntries(
    Object.entries({ ...Object.fromEntries(Object.entries(good).map(([k, v]) => [k, v.value])), ...config })
      .filter((e): e is [string, string] => e[1] !== undefined)
      .map(([k, v]) => [k, { value: v, secret: k === "txmail:apiKey" }]),
  );
  const s = await createTestStack({
    programDir: path.join(__dirname, "programs", "one"),
    name: "badconfig",
    config: { ...merged, kind: { value: "Route" }, args: { value: JSON.stringify(route) } },
    env,
    face,
  });
  stacks.push(s);
  return s;
}

/** The preview's failure text, or "passed". */
const previewOutcome = (s: TestStack) =>
  s.preview().then(
    () => "passed",
    (e: unknown) => String(e),
  );

// [case, stack config (undefined removes a setting), environment, expected message]: one of each
// source through the real engine; every rule and case is in test/unit/core/connection.test.ts. A
// bad setting in stack config is a case of "each error once" below (a malformed account id, in
// every face, with the service's counters at zero), and the base URL rule through the engine is
// the `connection` case below.
const cases: Array<[string, Record<string, string | undefined>, Record<string, string>, RegExp]> = [
  [
    "no API key anywhere",
    { "txmail:apiKey": undefined },
    {},
    /txmail:apiKey: not set; set it with `pulumi config set --secret txmail:apiKey …` or the TXMAIL_API_KEY environment variable/,
  ],
  [
    "account id from the environment",
    { "txmail:accountId": undefined },
    { TXMAIL_ACCOUNT_ID: "12345" },
    /TXMAIL_ACCOUNT_ID: must be an account id/,
  ],
];

describe("provider configuration is checked at preview", () => {
  it.each(cases)("%s", async (_case, config, env, expected) => {
    const s = await stack(config, env);
    await controlClient(svc).resetCounters();
    const outcome = await previewOutcome(s);
    expect(outcome).toMatch(expected);
    const counters = await controlClient(svc).counters();
    expect(counters.reads + counters.writes).toBe(0);
  });

  it("names a bad `connection` field of a resource", async () => {
    const s = await stack({});
    await s.stack.setConfig("args", {
      value: JSON.stringify({ ...route, connection: { accountId: svc.accountId, baseUrl: "htp:/bad url" } }),
    });
    expect(await previewOutcome(s)).toMatch(/connection\.baseUrl[^\n]*must be an http\(s\) URL/);
  });

  it("passes a good configuration, and config wins over a bad environment", async () => {
    const s = await stack({}, { TXMAIL_ACCOUNT_ID: "not-a-uuid", TXMAIL_BASE_URL: "htp:/x" });
    expect(await previewOutcome(s)).toBe("passed");
  });
});

/** What a failed preview said: its whole output (stdout and stderr) and the engine's diagnostics. */
interface Said {
  output: string;
  diagnostics: DiagnosticEvent[];
}

async function failedPreview(s: TestStack): Promise<Said> {
  const diagnostics: DiagnosticEvent[] = [];
  try {
    await s.stack.preview({
      color: "never",
      onEvent: (e) => void (e.diagnosticEvent && diagnostics.push(e.diagnosticEvent)),
    });
  } catch (e) {
    // The Automation API's error keeps the command's result in a field its typings mark private
    // (its message repeats stdout and stderr, so it is not counted itself).
    const { stdout, stderr } = (e as unknown as { commandResult: { stdout: string; stderr: string } }).commandResult;
    return { output: `${stdout}\n${stderr}`, diagnostics };
  }
  throw new Error("the preview passed");
}

/**
 * `text` said once: one diagnostic of the engine, of severity error, on `where` (a URN's last two
 * parts, type::name; none for the program itself, which the display files under the stack); in the
 * text a user reads, once in the progress and once in the Diagnostics summary (the engine's display
 * shows every diagnostic in both), never with a JavaScript stack.
 */
function expectSaidOnce({ output, diagnostics }: Said, text: string, where: string | undefined) {
  const said = diagnostics.filter((d) => d.message.includes(text));
  expect(said.map((d) => [d.severity, d.urn?.split("::").slice(-2).join("::")])).toEqual([["error", where]]);
  expect(occurrences(said[0]!.message, text)).toBe(1);
  const [progress, summary = ""] = output.split("\nDiagnostics:\n");
  expect([occurrences(progress!, text), occurrences(summary, text)]).toEqual([1, 1]);
  // The summary's block for the resource (or the stack) holds it.
  const [type, name] = where === undefined ? ["pulumi:pulumi:Stack", ""] : where.split("::");
  const heading = `${type} (${name}`;
  expect(summary).toContain(heading);
  expect(summary.slice(summary.indexOf(heading)).split("\n\n")[0]).toContain(text);
  expect(output).not.toMatch(/^\s+at .*\.(ts|js):\d+/m);
}

const occurrences = (output: string, text: string) => output.split(text).length - 1;

const BAD_ACCOUNT = "txmail:accountId: must be an account id (8-4-4-4-12 hexadecimal digits), got 'not-a-uuid'";

const yamlProgram = `name: once-yaml
runtime: yaml
resources:
  it:
    type: txmail:index:Route
    properties:
      name: ${route.name}
      url: ${route.url}
      recipient: ${route.recipient}
`;

describe("each error once", () => {
  // The dynamic face reports a bad setting on each resource that would use it; the plugin (native
  // TypeScript, YAML, and so Python and Go) on the provider resource that holds it. (The native
  // case is also the native face's "malformed setting fails the preview without calling the
  // service", which lived in native/lifecycle.test.ts.)
  it.each([
    ["dynamic", "pulumi-nodejs:dynamic/txmail:Route::it"],
    ["native", `pulumi:providers:txmail::${NATIVE_DEFAULT_PROVIDER}`],
    ["yaml", "pulumi:providers:txmail::default"],
  ])("a bad setting, %s face: said once, on %s", async (face, where) => {
    const s =
      face === "yaml"
        ? await yamlStack({ "txmail:accountId": "not-a-uuid" })
        : await stack({ "txmail:accountId": "not-a-uuid" }, {}, face as Face);
    await controlClient(svc).resetCounters();
    expectSaidOnce(await failedPreview(s), BAD_ACCOUNT, where);
    const counters = await controlClient(svc).counters();
    expect(counters.reads + counters.writes).toBe(0);
  });

  it("a bad setting of the whole program: said once, on the stack, without a stack trace", async () => {
    const s = await stack({}, { TXMAIL_FACE: "bogus" });
    const said = await failedPreview(s);
    expectSaidOnce(said, `TXMAIL_FACE: must be "dynamic" or "native", got 'bogus'`, undefined);
  });
});

/** The Route as a YAML program (served by the plugin), with the service's config and `config` over it. */
async function yamlStack(config: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-once-yaml-"));
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), yamlProgram);
  const good = svc.config();
  const s = await createTestStack({
    programDir: dir,
    name: "once-yaml",
    config: { ...good, ...Object.fromEntries(Object.entries(config).map(([k, v]) => [k, { value: v }])) },
  });
  fs.rmSync(dir, { recursive: true, force: true });
  stacks.push(s);
  return s;
}
