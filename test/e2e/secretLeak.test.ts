// Secret-leak scan: after a full lifecycle (up, update, rotation, refresh, destroy) with the engine's
// verbose logging on (-v=9, --logtostderr, debug), no secret value created along the way — API secret
// keys, SMTP passwords, route and webhook signing secrets, DKIM private keys (a write-only input the
// program reads from a file, as a plain string), Tenant bootstrap keys used as connections, the
// provider's own API key — appears in state exports (without --show-secrets), the engine's output
// and logs, or diffs. Goal: 0 hits.
//
// Every up that changes something runs with --diff, so the engine's output holds each change as a
// rich property diff (old and new values), which the scan reads with the rest of the output.
//
// Secrets are harvested from `pulumi stack export --show-secrets` after every step, by field name,
// so every secret the provider ever held is scanned for, not only the ones a program exports. A
// secret is looked for as is and JSON-escaped; a DKIM key also line by line (see `dkimKey`).
//
// Pulumi itself prints secret values in its verbose logs, whatever the provider does: the engine
// dumps every RPC property at -v=9 ("Marshaling/Unmarshaling property for RPC[…]", a secret as its
// {sig, value} map), and the Node SDK logs each RegisterResource response ("RegisterResource RPC
// finished: … resp: …", runtime/resource.js) as a debug message the engine records from -v=3 (and
// prints with --debug). Those lines are recognised by their exact prefixes, counted and reported;
// every other line — the provider's own messages and errors, the engine's other logs — and every
// state export and diff must hold no secret at all. Logs run at -v=9 without --debug, so every log
// record is one JSON line. docs/guide/behaviour.md#verbose-logs tells users to treat verbose logs accordingly.
import { generateKeyPairSync } from "node:crypto";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { createTestStack, FACES, REPO_ROOT, type Face, type TestStack } from "./harness";
import { startService, type TestService } from "../../support/service";

jest.setTimeout(15 * 60_000);

const SECRET_FIELDS = new Set(["secretKey", "password", "secret", "apiKey", "dkimPrivateKey"]);
/** Log records in which Pulumi itself dumps RPC payloads (see above). */
const PULUMI_RPC_DUMP =
  /^\{"time":"[^"]+","level":"INFO","msg":"(?:eventSink::Debug\(<\{%reset%\}>)?(?:(?:Un)?[Mm]arshaling property for RPC\[|(?:RegisterResource|RegisterResourceOutputs|ReadResource) RPC finished: )/;

let svc: TestService;
const stacks: TestStack[] = [];
/** Every secret value seen, with where it came from (for a readable failure). */
const secrets = new Map<string, string>();
/** Every text a user or a log collector could see; `log` texts may hold Pulumi's own RPC dumps. */
const texts: Array<{ where: string; text: string; log?: boolean }> = [];
const VERBOSE = { level: 9, debug: false };

/** Collects every string under a secret-named field of the decrypted state. */
async function harvest(t: TestStack, phase: string): Promise<void> {
  const walk = (v: unknown, field: string, where: string): void => {
    if (typeof v === "string") {
      if (SECRET_FIELDS.has(field) && v.length >= 8) secrets.set(v, `${where}.${field} (${phase})`);
    } else if (Array.isArray(v)) v.forEach((x) => walk(x, field, where));
    else if (v && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        // A decrypted secret exports as {sig, plaintext: "<JSON text>"}.
        if (k === "plaintext" && typeof x === "string") walk(JSON.parse(x), field, where);
        else walk(x, k === "value" ? field : k, where);
      }
    }
  };
  const deployment = JSON.parse(await t.exportText(true)) as {
    deployment: { resources?: Array<{ urn: string; inputs?: unknown; outputs?: unknown }> };
  };
  for (const r of deployment.deployment.resources ?? []) {
    const name = r.urn.split("::").pop() ?? r.urn;
    walk(r.inputs, "", name);
    walk(r.outputs, "", name);
  }
}

/** The forms in which a secret can show up in a text: as is, and JSON-escaped (a PEM's newlines). */
function needles(secret: string): string[] {
  return [...new Set([secret, JSON.stringify(secret).slice(1, -1)])];
}

/**
 * A fresh DKIM key (PEM, RSA 1024: the service's minimum), written where the program reads it, and
 * registered as secrets: whole, and each body line holding private material on its own, so a key
 * leaked in any escaping or only in part is found. Lines that are pure public key (the modulus, also
 * published in the domain's DKIM record, `p=…`) are not secrets and are left out.
 */
function dkimKey(t: TestStack, name: string): { file: string; pem: string } {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 1024 });
  const pem = privateKey.export({ type: "pkcs1", format: "pem" }) as string;
  const file = path.join(t.stateDir, `${name.replace(/\W+/g, "-")}.pem`);
  writeFileSync(file, pem, { mode: 0o600 });
  const published = ["spki", "pkcs1"]
    .map((type) => (publicKey.export({ type: type as "spki", format: "der" }) as Buffer).toString("base64"))
    .join(" ");
  secrets.set(pem, `${name} (PEM)`);
  pem
    .split("\n")
    .filter((line) => line.length >= 40 && !published.includes(line))
    .forEach((line, i) => secrets.set(line, `${name} (private body line ${i + 1})`));
  return { file, pem };
}

async function step(t: TestStack, phase: string): Promise<void> {
  await harvest(t, phase);
  texts.push({ where: `${phase}: state export`, text: await t.exportText(false) });
}

beforeAll(async () => {
  svc = await startService();
});

afterAll(async () => {
  for (const t of stacks) await t.dispose();
  await svc?.close();
});

// Both faces: the dynamic providers, and the native plugin (`TXMAIL_FACE=native`), whose settings
// and secrets cross the engine's gRPC boundary in the other direction too.
it.each(FACES)(
  "no secret appears in state exports, logs or diffs across a full lifecycle (%s face)",
  async (face: Face) => {
    secrets.clear();
    texts.length = 0;
    secrets.set(svc.apiKey, "provider API key");
    // Keys: create, then in one run the account key updated in place and the bootstrap key rotated
    // (replaced: a new key and secret, then the old one deleted), refresh, destroy. The provider key
    // is a secret stack config value.
    const keys = await createTestStack({
      programDir: path.join(__dirname, "programs", "keys"),
      name: `leak-keys-${face}`,
      face,
      verbose: VERBOSE,
      config: {
        ...svc.config(),
        subName: { value: "Leak Test" },
        keyLabel: { value: "ci" },
        scopes: { value: JSON.stringify(["messages:send:all"]) },
      },
    });
    stacks.push(keys);
    await keys.up();
    await step(keys, "keys after create");
    await keys.stack.setConfig("keyLabel", { value: "ci-2" });
    await keys.stack.setConfig("bootstrapRotation", { value: "r1" });
    await keys.up({ diff: true });
    await step(keys, "keys after update and rotation");
    await keys.refresh();
    await step(keys, "keys after refresh");

    // The provider key from the environment (what docs/guide/behaviour.md recommends for verbose logs).
    const envKey = { TXMAIL_API_KEY: svc.apiKey };
    const { "txmail:apiKey": _configKey, ...configWithoutKey } = svc.config();

    // A tenant's objects: route/webhook secrets and the SMTP password, and two replacements.
    const objects = await createTestStack({
      programDir: path.join(__dirname, "programs", "objects"),
      name: `leak-objects-${face}`,
      face,
      verbose: VERBOSE,
      config: configWithoutKey,
      env: envKey,
    });
    stacks.push(objects);
    const dkim1 = dkimKey(objects, "DKIM key 1");
    await objects.stack.setConfig("dkimKeyFile", { value: dkim1.file });
    await objects.up();
    await step(objects, "objects after create");
    // In one run: the SMTP credential replaced (new first, a new password), and, for a new DKIM key,
    // the domain replaced (delete first), its key sent to the service again.
    await objects.stack.setConfig("sandbox", { value: "true" });
    const dkim2 = dkimKey(objects, "DKIM key 2");
    await objects.stack.setConfig("dkimKeyFile", { value: dkim2.file });
    await objects.up({ diff: true });
    await step(objects, "objects after the replacements");
    await objects.refresh();

    // Tenant components: bootstrap keys become the children's connections (a secret inside an input).
    const tenants = await createTestStack({
      programDir: path.join(REPO_ROOT, "examples", "tenants-from-yaml"),
      name: `leak-tenants-${face}`,
      face,
      verbose: VERBOSE,
      config: configWithoutKey,
      env: envKey,
    });
    stacks.push(tenants);
    await tenants.up();
    await step(tenants, "tenants after create");
    await tenants.refresh();

    await keys.destroy();
    await objects.destroy();
    await tenants.destroy();
    texts.push({ where: "keys: engine output and verbose logs", text: keys.log(), log: true });
    texts.push({ where: "objects: engine output and verbose logs", text: objects.log(), log: true });
    texts.push({ where: "tenants: engine output and verbose logs", text: tenants.log(), log: true });

    // TXMAIL_LEAK_DUMP=dir keeps every scanned text for a human to read.
    const dump = process.env.TXMAIL_LEAK_DUMP;
    if (dump)
      texts.forEach(({ where, text }, i) =>
        writeFileSync(path.join(dump, `${face}-${i}-${where.replace(/\W+/g, "_")}.txt`), text),
      );

    // Secrets of every kind were seen: the account key, 2 generations of the bootstrap key, 2
    // route/webhook secrets, 2 SMTP passwords, 2 DKIM keys, the tenants' bootstrap keys, app keys
    // and SMTP passwords, and the provider key.
    expect(secrets.size).toBeGreaterThanOrEqual(16);
    // The DKIM keys reached the state (encrypted; harvested from the decrypted export), so the scan
    // covers where they are kept, not only the values the test made.
    for (const { pem } of [dkim1, dkim2]) expect(secrets.get(pem)).toMatch(/\.dkimPrivateKey/);
    const hits: string[] = [];
    const pulumiDumps = new Map<string, number>();
    for (const { where, text, log } of texts) {
      for (const [secret, what] of secrets) {
        for (const needle of needles(secret))
          for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
            const lineStart = text.lastIndexOf("\n", at) + 1;
            const line = text.slice(lineStart, text.indexOf("\n", at) === -1 ? undefined : text.indexOf("\n", at));
            const dump = log ? PULUMI_RPC_DUMP.exec(line) : null;
            if (dump) {
              const kind = /RPC finished/.test(dump[0])
                ? "Node SDK RPC-finished debug"
                : "engine RPC property dump (-v=9)";
              pulumiDumps.set(kind, (pulumiDumps.get(kind) ?? 0) + 1);
              continue;
            }
            hits.push(`${what} in ${where}: …${text.slice(Math.max(lineStart, at - 400), at)}<SECRET>…`);
          }
      }
    }
    console.log(
      `secret-leak scan (${face} face): ${secrets.size} secrets, ${texts.length} texts, 0 expected hits; Pulumi's own RPC dumps: ${JSON.stringify(Object.fromEntries(pulumiDumps))}`,
    );
    expect(hits).toEqual([]);
    // The scan is not vacuous: the logs are verbose and the exports hold ciphertexts.
    expect(keys.log().length).toBeGreaterThan(10_000);
    expect(texts[0]!.text).toContain('"ciphertext"');
  },
);
