// The generic provider's check, below both faces, on every bad-input case (test/fixtures/badInput.ts):
// it refuses the input with a failure naming the field and the rule, and calls nothing at the
// service. test/e2e/badInput.test.ts runs a few of the cases through the real engine on both faces.
import type { Api } from "../../../provider/core/api";
import { makeProvider } from "../../../provider/core/factory";
import { declarations } from "../../../provider/resources";
import type { Kind } from "../../../provider/api";
import { BAD_INPUT_CASES } from "../../fixtures/badInput";

/** A service that fails the test if check reaches it at all. */
const untouchable: Api = {
  get: async (path: string) => {
    throw new Error(`check called GET ${path}`);
  },
  // eslint-disable-next-line require-yield
  async *list(path: string) {
    throw new Error(`check listed ${path}`);
  },
  post: async (path: string) => {
    throw new Error(`check called POST ${path}`);
  },
  put: async (path: string) => {
    throw new Error(`check called PUT ${path}`);
  },
  delete: async (path: string) => {
    throw new Error(`check called DELETE ${path}`);
  },
};

beforeAll(() => {
  process.env.TXMAIL_API_KEY = "test-sk-key";
  process.env.TXMAIL_ACCOUNT_ID = "11111111-1111-4111-8111-111111111111";
});

it.each(BAD_INPUT_CASES)("%s: check fails naming the field and the rule", async (_name, kind, args, field, rule) => {
  const p = makeProvider(declarations[kind as Kind]!, () => untouchable);
  const r = await p.check({}, args);
  expect(r.failures?.length).toBeGreaterThan(0);
  const reasons = r.failures!.map((f) => f.reason).join("\n");
  expect(reasons).toContain(`${field}: `);
  expect(reasons).toMatch(rule);
});
