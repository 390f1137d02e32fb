// Secrets, hashes and the AES-256-GCM sealing of stored secret-bearing idempotent responses.
import { createCipheriv, createDecipheriv, createHash, randomBytes, randomUUID } from "node:crypto";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const KEY_PREFIX = "txm";
const ALPHANUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/** `<prefix>-sk-<64 random characters>` (docs/contract/authentication.md#rule-2). */
export const SECRET_KEY_FORMAT = /^[a-z0-9]+-sk-[A-Za-z0-9]{64}$/;

export const uuid = (): string => randomUUID();

/** Unbiased random alphanumerics (rejection sampling, bounded by the byte budget). */
export function randomChars(n: number): string {
  let out = "";
  for (let round = 0; round < 16 && out.length < n; round++) {
    for (const b of randomBytes(n * 2)) {
      if (b < 248) out += ALPHANUM[b % 62];
      if (out.length === n) break;
    }
  }
  if (out.length < n) throw new Error("random source exhausted");
  return out;
}

export const newSecretKey = (): string => `${KEY_PREFIX}-sk-${randomChars(64)}`;
export const sha256 = (data: string | Buffer): string => createHash("sha256").update(data).digest("hex");

/** The server secret: 32 random bytes kept in the data dir (mode 0600), or per process in memory. */
export function loadServerSecret(dataDir?: string): Buffer {
  if (!dataDir) return randomBytes(32);
  const file = join(dataDir, "server-secret");
  if (existsSync(file)) {
    // Kept 0600 even if loosened since (the data dir's rule: emulator/store/db.ts makePrivateDataDir).
    chmodSync(file, 0o600);
    const b = Buffer.from(readFileSync(file, "utf8").trim(), "base64");
    if (b.length !== 32) throw new Error(`${file} is not a 32-byte base64 secret`);
    return b;
  }
  const b = randomBytes(32);
  writeFileSync(file, b.toString("base64") + "\n", { mode: 0o600, flag: "wx" });
  chmodSync(file, 0o600);
  return b;
}

export class Sealer {
  constructor(private readonly key: Buffer) {}
  /** iv.tag.ciphertext, base64; `aad` binds the ciphertext to its record. */
  seal(plain: string, aad: string): string {
    const iv = randomBytes(12);
    const c = createCipheriv("aes-256-gcm", this.key, iv);
    c.setAAD(Buffer.from(aad));
    const ct = Buffer.concat([c.update(plain, "utf8"), c.final()]);
    return [iv, c.getAuthTag(), ct].map((b) => b.toString("base64")).join(".");
  }
  open(sealed: string, aad: string): string {
    const [iv, tag, ct] = sealed.split(".").map((s) => Buffer.from(s, "base64"));
    const d = createDecipheriv("aes-256-gcm", this.key, iv!);
    d.setAAD(Buffer.from(aad));
    d.setAuthTag(tag!);
    return Buffer.concat([d.update(ct!), d.final()]).toString("utf8");
  }
}
