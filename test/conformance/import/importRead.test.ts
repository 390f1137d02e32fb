// `pulumi import`'s read (provider/core/importRead.ts) with the real declarations and HTTP client
// against the emulator: for every kind, an object created the way a program creates it, then
// imported by the id a user types. The imported state must be what the create recorded (apart from
// the one-time secret, which the service never shows again, and the write timestamp state does not
// keep), and the imported inputs must be ones the program could declare: check keeps them as they
// are and diff against the imported state finds nothing (the next `pulumi up` is a no-op).
import { closeSharedDispatchers } from "../../../provider/client";
import { apiFor } from "../../../provider/core/clientApi";
import { makeProvider, type Provider } from "../../../provider/core/factory";
import { readForImport } from "../../../provider/core/importRead";
import type { Props } from "../../../provider/core/declaration";
import { declarationOf, declarations } from "../../../provider/resources";
import { startEmulator, type RunningEmulator } from "../../../emulator/server";

let emu: RunningEmulator;
const providers: Record<string, Provider> = {};
const providerOf = (kind: string) => (providers[kind] ??= makeProvider(declarationOf(kind)!, apiFor));

beforeAll(async () => {
  emu = await startEmulator({ port: 0, control: true });
  process.env.TXMAIL_API_KEY = emu.apiKey;
  process.env.TXMAIL_ACCOUNT_ID = emu.accountId;
  process.env.TXMAIL_BASE_URL = emu.baseUrl;
});

afterAll(async () => {
  await closeSharedDispatchers();
  await emu?.close();
});

/** Creates through check and create, as `pulumi up` does; returns the checked inputs and the outputs. */
async function created(kind: string, program: Props): Promise<{ id: string; inputs: Props; outs: Props }> {
  const p = providerOf(kind);
  const checked = await p.check({}, { ...program, __urn: `urn:pulumi:t::import::txmail:index:${kind}::${kind}` });
  if (!checked.inputs) throw new Error(JSON.stringify(checked.failures));
  const { id, outs } = await p.create(checked.inputs);
  const { __urn: _urn, ...inputs } = checked.inputs;
  return { id, inputs, outs };
}

/** The import of one object, with the spec's form of id. */
async function imported(kind: string, importId: string) {
  const result = await readForImport(declarationOf(kind)!, providerOf(kind), importId);
  if (!result) throw new Error(`${kind} ${importId}: not found`);
  return result;
}

const oneTimeSecrets = (kind: string) => Object.keys(declarationOf(kind)!.createOnly ?? {});
const without = (props: Props, keys: string[]) =>
  Object.fromEntries(Object.entries(props).filter(([k]) => !keys.includes(k)));

const future = new Date(Date.now() + 30 * 86_400_000).toISOString();
let subAccountId = "";

/** [kind, the program's inputs, the import id a user types] — in order (the sub account first). */
const CASES: Array<[string, () => Props, (c: { id: string; inputs: Props }) => string]> = [
  ["SubAccount", () => ({ name: "Import Co", website: "import.example.com" }), (c) => c.id],
  [
    "SubAccountApiKey",
    () => ({ subAccountId, label: "import bootstrap", scopes: ["domains:read"] }),
    (c) => `${subAccountId}/${c.id}`,
  ],
  ["ApiKey", () => ({ label: "import ci", scopes: ["routes:read:all"], ipAllowList: ["10.0.0.0/8"] }), (c) => c.id],
  ["Domain", () => ({ domain: "Mail.Import.example.com" }), () => "mail.import.example.com"],
  [
    "Route",
    () => ({ name: "inbound", url: "https://import.example.com/in", recipient: "in@mail.import.example.com" }),
    (c) => c.id,
  ],
  ["Webhook", () => ({ name: "events", url: "https://import.example.com/hooks", onBounced: true }), (c) => c.id],
  ["SmtpCredential", () => ({ name: "relay", scope: "scoped", domains: ["mail.import.example.com"] }), (c) => c.id],
  ["Suppression", () => ({ email: "Gone@import.example.com", reason: "hard bounce", expiresAt: future }), (c) => c.id],
  ["AccountMember", () => ({ email: "dev@import.example.com", role: "Developer" }), () => ""],
];

describe("import read: the state a create would have recorded, and inputs whose next up is a no-op", () => {
  it.each(CASES)("%s", async (kind, program, importIdOf) => {
    const made = await created(kind, program());
    if (kind === "SubAccount") subAccountId = made.id;
    const importId = kind === "AccountMember" ? `DEV@import.example.com/${made.id}` : importIdOf(made);
    const got = await imported(kind, importId);

    // Outputs: as recorded by the create, apart from the one-time secret (empty after import).
    const secrets = oneTimeSecrets(kind);
    expect(without(got.props, secrets)).toEqual(without(made.outs, secrets));
    for (const s of secrets) {
      expect(made.outs[s]).toEqual(expect.any(String));
      expect(got.props[s]).toBe("");
    }
    expect(got.warnings.length).toBe(secrets.length);

    // Inputs: what the program declared (plus what the service reports it chose) is what check makes of them.
    expect(got.inputs).toMatchObject(made.inputs);
    const rechecked = await providerOf(kind).check({}, { ...got.inputs, __urn: "urn:x" });
    expect(rechecked.failures).toBeUndefined();
    const { __urn: _u, ...recheckedInputs } = rechecked.inputs!;
    expect(recheckedInputs).toEqual(got.inputs);

    // The next `pulumi up` of either the imported code or the original program changes nothing.
    expect((await providerOf(kind).diff(got.id, got.props, got.inputs)).changes).toBe(false);
    expect((await providerOf(kind).diff(got.id, got.props, made.inputs)).changes).toBe(false);
  });
});

describe("import ids a user types wrongly are refused naming the kind and the form", () => {
  it.each([
    ["Domain", "0f8fad5b-d9cb-469f-a165-70867728950e", /Domain import id .*imported by its name/],
    ["Domain", "not a domain", /Domain import id 'not a domain': must be a domain name/],
    ["Route", "inbound", /Route import id 'inbound': must be the object's id/],
    ["SubAccountApiKey", "0f8fad5b-d9cb-469f-a165-70867728950e", /must be <subAccountId>\/<keyId>/],
    ["SubAccountApiKey", "acme/0f8fad5b-d9cb-469f-a165-70867728950e", /'acme' is not a sub account id/],
    ["AccountMember", "0f8fad5b-d9cb-469f-a165-70867728950e", /must be <email>\/<userId>/],
  ])("%s %s", async (kind, importId, message) => {
    await expect(imported(kind, importId)).rejects.toThrow(message);
  });

  it("an id of no object is not found (the engine then says the resource does not exist)", async () => {
    const none = await readForImport(declarations.Route, providerOf("Route"), "0f8fad5b-d9cb-469f-a165-70867728950e");
    expect(none).toBeUndefined();
  });
});
