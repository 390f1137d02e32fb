// The package schema says what each resource's state holds; this checks it against state the real
// provider records: every kind created through the generic provider (the same code both faces
// call) against the emulator on loopback. A state key the schema does not declare, a declared
// always-set output that is missing, or a value of another type fails here — so the generator's
// reading of the declarations (outputsOf, createOnly, stateOf) cannot drift from the provider's.
import { closeSharedDispatchers } from "../../../provider/client";
import { apiFor } from "../../../provider/core/clientApi";
import { makeProvider } from "../../../provider/core/factory";
import type { Props } from "../../../provider/core/declaration";
import { KINDS, type Kind } from "../../../provider/api/kinds";
import { declarationOf } from "../../../provider/resources";
import { packageSchema } from "../../../native/schema/packageSchema";
import type { PropertySpec } from "../../../native/schema/pulumiSchema";
import { startEmulator, type RunningEmulator } from "../../../emulator/server";
import { controlClient } from "../../../support/control";

const schema = packageSchema();
let emu: RunningEmulator;
let subAccountId: string;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, control: true });
  process.env.TXMAIL_API_KEY = emu.apiKey;
  process.env.TXMAIL_ACCOUNT_ID = emu.accountId;
  process.env.TXMAIL_BASE_URL = emu.baseUrl;
  subAccountId = (await create("SubAccount", { name: "Acme", website: "acme.example.com" })).id;
  // The domain the DomainVerification program watches, its DNS seen by the service.
  await create("Domain", { domain: VERIFIED });
  await controlClient(emu).setDomainVerified(VERIFIED, true);
});

afterAll(async () => {
  await closeSharedDispatchers();
  await emu?.close();
});

/** Creates through the generic provider, after its check (so inputs are canonical, defaults applied). */
async function create(kind: string, program: Props): Promise<{ id: string; outs: Props }> {
  const provider = makeProvider(declarationOf(kind)!, apiFor);
  const checked = await provider.check({}, program);
  if (!checked.inputs) throw new Error(`${kind}: ${JSON.stringify(checked.failures)}`);
  return provider.create({ ...checked.inputs, __urn: `urn:pulumi:test::schema::txmail:index:${kind}::x` });
}

const VERIFIED = "verified.schema.example.com";
const IN_A_YEAR = new Date(Date.now() + 365 * 86_400_000).toISOString();
/** A create of every kind (does not compile while a kind of the list is missing). */
const PROGRAMS: Record<Kind, () => Props> = {
  SubAccount: () => ({ name: "Globex", website: "globex.example.com", monthlyCredit: 10 }),
  ApiKey: () => ({ label: "ci", scopes: ["messages:send:all"] }),
  SubAccountApiKey: () => ({ subAccountId, label: "bootstrap", scopes: ["domains:read"], rotation: "1" }),
  Domain: () => ({ domain: "mail.schema.example.com", dkimSelector: "s1" }),
  DomainVerification: () => ({ domain: VERIFIED, timeoutSeconds: 1 }),
  Route: () => ({ name: "inbound", url: "https://schema.example.com/in", recipient: "*@schema.example.com" }),
  Webhook: () => ({ name: "events", url: "https://schema.example.com/hooks", onBounced: true }),
  SmtpCredential: () => ({ name: "relay" }),
  AccountMember: () => ({ email: "ada@schema.example.com", name: "Ada", role: "Developer" }),
  Suppression: () => ({ email: "gone@schema.example.com", reason: "bounced", expiresAt: IN_A_YEAR }),
};

/** Does a state value have the schema type? (Pulumi has no null: a declared property may be null.) */
function fits(value: unknown, prop: PropertySpec): boolean {
  if (value === null) return true;
  if (prop.$ref) {
    const type = schema.types[prop.$ref.replace("#/types/", "")];
    if (!type) return false;
    if ("enum" in type) return type.enum.some((e) => e.value === value);
    return (
      typeof value === "object" &&
      Object.entries(value as object).every(
        ([k, v]) => type.properties[k] !== undefined && fits(v, type.properties[k]!),
      )
    );
  }
  switch (prop.type) {
    case "string":
      return typeof value === "string";
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number";
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value) && value.every((v) => fits(v, prop.items!));
    default:
      return typeof value === "object";
  }
}

test.each(KINDS)("%s: the state a create records is what the schema declares", async (kind) => {
  const { outs } = await create(kind, PROGRAMS[kind]());
  const declared = schema.resources[`txmail:index:${kind}`]!;
  // Kept for the dynamic face's idempotency keys, and write-only inputs (a digest): not outputs.
  const hidden = new Set(["__urn", "__stackSalt", ...(declarationOf(kind)!.writeOnly ?? [])]);
  const state = Object.fromEntries(Object.entries(outs).filter(([k]) => !hidden.has(k)));

  expect(Object.keys(state).filter((k) => !(k in declared.properties))).toEqual([]);
  expect((declared.required ?? []).filter((k) => state[k] === undefined || state[k] === null)).toEqual([]);
  expect(Object.entries(state).filter(([k, v]) => !fits(v, declared.properties[k]!))).toEqual([]);
});
