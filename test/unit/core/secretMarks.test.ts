import { SECRET_SIG, SIG_KEY, isSecretValue, markSecrets, secretValue } from "../../../provider/core/secretMarks";
import { UNKNOWN } from "../../../provider/core/unknowns";
import { secretPathsOf, withSecretMarks } from "../../../provider/runtime";
import { declarations } from "../../../provider/resources";
import type { Provider } from "../../../provider/core/factory";

describe("markSecrets", () => {
  test("signs top-level and nested values with Pulumi's secret signature, copying, not mutating", () => {
    const props = { secretKey: "txm-sk-1", connection: { apiKey: "k", accountId: "a" }, label: "x" };
    const out = markSecrets(props, [["secretKey"], ["connection", "apiKey"]]);
    expect(out).toEqual({
      secretKey: { [SIG_KEY]: SECRET_SIG, value: "txm-sk-1" },
      connection: { apiKey: { [SIG_KEY]: SECRET_SIG, value: "k" }, accountId: "a" },
      label: "x",
    });
    expect(props.secretKey).toBe("txm-sk-1");
    expect(props.connection.apiKey).toBe("k");
  });

  test("leaves absent, null, unknown and already-signed values alone", () => {
    const signed = secretValue("s");
    const props = { a: undefined, b: null, c: UNKNOWN, d: signed, connection: "not an object" };
    const out = markSecrets(props, [["a"], ["b"], ["c"], ["d"], ["e"], ["connection", "apiKey"]]);
    expect(out).toEqual(props);
    expect(isSecretValue(out.d)).toBe(true);
  });
});

describe("withSecretMarks / secretPathsOf", () => {
  test("every resource with one-time secrets or write-only inputs has them in its paths, plus the connection key", () => {
    expect(secretPathsOf(declarations.ApiKey!)).toEqual(
      expect.arrayContaining([["secretKey"], ["connection", "apiKey"]]),
    );
    expect(secretPathsOf(declarations.SmtpCredential!)).toEqual(expect.arrayContaining([["password"]]));
    expect(secretPathsOf(declarations.Route!)).toEqual(expect.arrayContaining([["secret"]]));
    expect(secretPathsOf(declarations.Webhook!)).toEqual(expect.arrayContaining([["secret"]]));
    expect(secretPathsOf(declarations.Domain!)).toEqual(expect.arrayContaining([["dkimPrivateKey"]]));
  });

  test("signs what check, create, read and update return; passes diff and delete through", async () => {
    const calls: string[] = [];
    const inner: Provider = {
      check: async (_o, n) => ({ inputs: { ...n } }),
      diff: async () => ({ changes: false }),
      create: async (i) => ({ id: "1", outs: { ...i, secretKey: "new" } }),
      read: async (id, p) => ({ id, props: { ...p } }),
      update: async (_id, _o, n) => ({ outs: { ...n } }),
      delete: async (id) => void calls.push(`delete ${id}`),
    };
    const p = withSecretMarks(inner, [["secretKey"], ["connection", "apiKey"]]);
    const news = { label: "l", connection: { apiKey: "k" } };
    const signedKey = { connection: { apiKey: secretValue("k") } };
    expect((await p.check({}, news)).inputs).toEqual({ label: "l", ...signedKey });
    expect((await p.create(news)).outs).toEqual({ label: "l", ...signedKey, secretKey: secretValue("new") });
    expect((await p.read("1", { secretKey: "old" })).props).toEqual({ secretKey: secretValue("old") });
    expect((await p.update("1", {}, { secretKey: "old" })).outs).toEqual({ secretKey: secretValue("old") });
    expect(await p.read("1")).toEqual({ id: "1", props: {} });
    expect(await p.diff("1", {}, {})).toEqual({ changes: false });
    await p.delete("1", {});
    expect(calls).toEqual(["delete 1"]);
  });
});
