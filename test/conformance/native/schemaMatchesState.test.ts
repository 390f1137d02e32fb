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
import { type ExampleResource, REFERENCE, exampleOf } from "../../../support/examples";

const schema = packageSchema();
let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, control: true });
  process.env.TXMAIL_API_KEY = emu.apiKey;
  process.env.TXMAIL_ACCOUNT_ID = emu.accountId;
  process.env.TXMAIL_BASE_URL = emu.baseUrl;
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

/**
 * A kind's resource as its one example (docs/examples/<Kind>, read by support/examples.ts) declares
 * it: its properties, each `${other.output}` filled in by creating `other` first. So a new kind is
 * checked with no line here.
 */
async function fromExample(kind: Kind): Promise<Props> {
  const { resources, own } = exampleOf(kind);
  const made = new Map<string, Props>();
  const resolve = async (value: unknown): Promise<unknown> => {
    if (Array.isArray(value)) return Promise.all(value.map(resolve));
    const ref = typeof value === "string" ? REFERENCE.exec(value) : null;
    if (!ref) return value;
    const [, name, output] = ref;
    if (!made.has(name!)) made.set(name!, await instantiate(resources[name!]!));
    return made.get(name!)![output!];
  };
  const propsOf = async (r: ExampleResource) =>
    Object.fromEntries(
      await Promise.all(Object.entries(r.properties ?? {}).map(async ([k, v]) => [k, await resolve(v)] as const)),
    );
  const instantiate = async (r: ExampleResource) => {
    const { id, outs } = await create(r.type.split(":").pop()!, await propsOf(r));
    return { ...outs, id };
  };
  return propsOf(resources[own]!);
}

/**
 * Where a kind's example cannot be created as it stands: a DomainVerification waits for DNS the
 * emulator has seen (the domain `beforeAll` verified), and not for the example's 15 minutes.
 */
const PROGRAMS: Partial<Record<Kind, () => Props>> = {
  DomainVerification: () => ({ domain: VERIFIED, timeoutSeconds: 1 }),
};

/** Does a state value have the schema type? (Pulumi has no null: a declared property may be null.) */
function fits(value: unknown, prop: PropertySpec): boolean {
  if (value === null) return true;
  // A union (a key's `rotation`: the legacy string or a schedule) fits when one of its types does.
  if (prop.oneOf) return prop.oneOf.some((t) => fits(value, t));
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
  const { outs } = await create(kind, PROGRAMS[kind]?.() ?? (await fromExample(kind)));
  const declared = schema.resources[`txmail:index:${kind}`]!;
  // Kept for the dynamic face's idempotency keys, and write-only inputs (a digest): not outputs.
  const hidden = new Set(["__urn", "__stackSalt", ...(declarationOf(kind)!.writeOnly ?? [])]);
  const state = Object.fromEntries(Object.entries(outs).filter(([k]) => !hidden.has(k)));

  expect(Object.keys(state).filter((k) => !(k in declared.properties))).toEqual([]);
  expect((declared.required ?? []).filter((k) => state[k] === undefined || state[k] === null)).toEqual([]);
  expect(Object.entries(state).filter(([k, v]) => !fits(v, declared.properties[k]!))).toEqual([]);
});
