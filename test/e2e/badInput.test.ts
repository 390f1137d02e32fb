// Bad input fails at check with a message naming the field and the rule, and nothing reaches the
// service. Each case runs `pulumi up`, not a preview: an up would create the resource if check let
// the input through (a preview never writes, so "no writes after a preview" could not fail), and
// the emulator's counters must show no request at all, reads included — the engine stopped at
// check, before any provider create or read could run. The cases are test/fixtures/badInput.ts:
// every one runs against the check below both faces in test/unit/resources/badInput.test.ts; here,
// on both faces, the ones that cover how inputs cross the wire and how a failure reaches the engine.
import * as path from "node:path";
import { createTestStack, FACES, type TestStack } from "./harness";
import { startService, type TestService } from "../../support/service";
import { controlClient } from "../../support/control";
import { BAD_INPUT_CASES, ENGINE_CASES } from "../fixtures/badInput";

jest.setTimeout(10 * 60_000);

let svc: TestService;
let t: TestStack;

describe.each(FACES)("%s face", (face) => {
  beforeAll(async () => {
    svc = await startService();
    t = await createTestStack({
      programDir: path.join(__dirname, "programs", "one"),
      name: `bad-${face}`,
      face,
      config: { ...svc.config(), kind: { value: "ApiKey" }, args: { value: "{}" } },
    });
  });

  afterAll(async () => {
    await t?.dispose();
    await svc?.close();
  });

  describe("bad input fails at check, naming the field and the rule; nothing reaches the service", () => {
    it.each(BAD_INPUT_CASES.filter(([name]) => ENGINE_CASES.has(name)))(
      "%s",
      async (_name, kind, args, field, rule) => {
        await t.stack.setConfig("kind", { value: kind });
        await t.stack.setConfig("args", { value: JSON.stringify(args) });
        const control = controlClient(svc);
        await control.resetCounters();
        let message = "";
        try {
          await t.up();
        } catch (err) {
          message = String((err as Error).message);
        }
        expect(await control.counters()).toEqual({ reads: 0, writes: 0, total: 0, endpoints: {}, keys: {} });
        expect(message).toContain(`${field}: `);
        expect(message).toMatch(rule);
      },
    );
  });
});
