// Persistence: SQLite in a data dir survives an in-process restart (objects, soft-deleted sub
// accounts, idempotency records incl. the sealed secret replay, the clock) and a kill -9 of the CLI
// (dist/emulator/cli.js) loses nothing committed.
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type Emu, cliPath, start, uniq } from "./helpers";

let dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), "txmail-emu-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

describe("Persistence", () => {
  test("Persistence: a restart on the same data dir reloads account, key, objects, idempotency records and the clock", async () => {
    const dir = tmp();
    let emu: Emu = await start({ dataDir: dir });
    const { accountId, apiKey } = emu;
    const route = await emu.req("POST", emu.acct("/routes"), {
      body: { name: "keep", url: "https://h.example.com/", recipient: "" },
      idem: "persist-1",
    });
    const keyBody = { label: uniq(), scopes: ["routes:read:all"] };
    const key = await emu.req("POST", emu.acct("/api-keys"), { body: keyBody, idem: "persist-2" });
    const sub = await emu.req("POST", emu.acct("/sub-accounts"), { body: { name: "gone", website: "example.org" } });
    await emu.req("DELETE", emu.acct(`/sub-accounts/${sub.body.id}`));
    await emu.control.advanceClock(3_600_000);
    const clockBefore = (await emu.control.clock()).offsetMs;
    await emu.close();

    emu = await start({ dataDir: dir });
    try {
      expect([emu.accountId, emu.apiKey]).toEqual([accountId, apiKey]);
      expect((await emu.control.clock()).offsetMs).toBe(clockBefore);
      expect((await emu.req("GET", emu.acct(`/routes/${route.body.id}`))).body.name).toBe("keep");
      const replay = await emu.req("POST", emu.acct("/routes"), {
        body: { name: "keep", url: "https://h.example.com/", recipient: "" },
        idem: "persist-1",
      });
      expect([replay.headers.get("idempotent-replayed"), replay.body.id]).toEqual(["true", route.body.id]);
      // The key-creation record survives too; its replay window (5 min) ended with the clock's 1 h jump.
      const k2 = await emu.req("POST", emu.acct("/api-keys"), { body: keyBody, idem: "persist-2" });
      expect(k2.status).toBe(409);
      expect((await emu.req("GET", "/v2/ping", { key: key.body.secret_key })).status).toBe(200);
      const dump = await emu.control.dumpState();
      expect(dump.accounts.find((a) => a.id === sub.body.id)).toMatchObject({ status: "deleted" });
    } finally {
      await emu.close();
    }
    expect(statSync(join(dir, "server-secret")).mode & 0o777).toBe(0o600);
  });

  test("Persistence: restart keeps the secret replay window (within 5 minutes the same secret_key comes back)", async () => {
    const dir = tmp();
    let emu = await start({ dataDir: dir });
    const body = { label: uniq(), scopes: ["routes:read:all"] };
    const a = await emu.req("POST", emu.acct("/api-keys"), { body, idem: "seal-1" });
    await emu.close();
    emu = await start({ dataDir: dir });
    try {
      const b = await emu.req("POST", emu.acct("/api-keys"), { body, idem: "seal-1" });
      expect([b.status, b.headers.get("idempotent-replayed"), b.body.secret_key]).toEqual([
        201,
        "true",
        a.body.secret_key,
      ]);
      const raw =
        readFileSync(join(dir, "emulator.sqlite")).toString("latin1") +
        (existsSync(join(dir, "emulator.sqlite-wal"))
          ? readFileSync(join(dir, "emulator.sqlite-wal")).toString("latin1")
          : "");
      expect(raw).not.toContain(a.body.secret_key);
    } finally {
      await emu.close();
    }
  });

  // The database holds webhook and route signing secrets and SMTP passwords in plain text.
  test("Persistence: the data dir is 0700 and every file in it 0600, whatever the umask; looser ones are tightened", async () => {
    const modes = (dir: string) =>
      Object.fromEntries([".", ...readdirSync(dir)].map((f) => [f, statSync(join(dir, f)).mode & 0o777]));
    const umask = process.umask(0o022); // the usual default: new files 0644, directories 0755
    try {
      const dir = join(tmp(), "not", "yet", "there");
      let emu = await start({ dataDir: dir });
      try {
        const hook = await emu.req("POST", emu.acct("/webhooks"), {
          body: { name: "modes", url: "https://h.example.com/", scope: "global" },
        });
        expect(hook.status).toBe(201);
        const written = modes(dir);
        // The WAL files exist while the database is open: they are checked, not only the main file.
        expect(Object.keys(written).sort()).toEqual(
          [".", "emulator.sqlite", "emulator.sqlite-shm", "emulator.sqlite-wal", "server-secret"].sort(),
        );
        expect(written).toEqual(Object.fromEntries(Object.keys(written).map((f) => [f, f === "." ? 0o700 : 0o600])));
      } finally {
        await emu.close();
      }
      expect(statSync(dirname(dir)).mode & 0o777).toBe(0o700); // parents it made, too

      // A data dir made beforehand with `mkdir -p` (scripts/demo.sh did), or by an older emulator.
      chmodSync(dir, 0o755);
      for (const f of readdirSync(dir)) chmodSync(join(dir, f), 0o644);
      emu = await start({ dataDir: dir });
      try {
        const reopened = modes(dir);
        expect(reopened).toEqual(Object.fromEntries(Object.keys(reopened).map((f) => [f, f === "." ? 0o700 : 0o600])));
      } finally {
        await emu.close();
      }
    } finally {
      process.umask(umask);
    }
  });

  test("Persistence: an in-memory emulator (no data dir) starts empty every time", async () => {
    const a = await start();
    await a.req("POST", a.acct("/routes"), { body: { name: "mem", url: "https://h.example.com/", recipient: "" } });
    await a.close();
    const b = await start();
    try {
      expect((await b.req("GET", b.acct("/routes"))).body.data).toEqual([]);
      expect(b.accountId).not.toBe(a.accountId);
    } finally {
      await b.close();
    }
  });
});

function spawnCli(
  cli: string,
  env: NodeJS.ProcessEnv,
  dir: string,
): Promise<{ proc: ChildProcess; boot: { baseUrl: string; accountId: string; apiKey: string }; stdout: () => string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [cli, "--port", "0", "--data", dir], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    const timer = setTimeout(() => reject(new Error(`cli did not start: ${err}`)), 15_000);
    proc.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      if (out.includes("\n")) {
        clearTimeout(timer);
        resolve({ proc, boot: JSON.parse(out.split("\n")[0]!), stdout: () => out });
      }
    });
    proc.stderr!.on("data", (c: Buffer) => (err += c.toString()));
    proc.on("exit", (code) => {
      clearTimeout(timer);
      if (!out) reject(new Error(`cli exited ${code}: ${err}`));
    });
  });
}

const exited = (p: ChildProcess) =>
  new Promise<number | null>((r) =>
    p.exitCode !== null || p.signalCode !== null ? r(p.exitCode) : p.once("exit", (c) => r(c)),
  );

describe("Persistence (CLI)", () => {
  test("Persistence: kill -9 of the CLI loses nothing committed; restart reloads it", async () => {
    const { cli, env } = cliPath(tmp);
    const dir = tmp();
    const first = await spawnCli(cli, env, dir);
    const boot = first.boot;
    expect(Object.keys(boot).sort()).toEqual(["accountId", "apiKey", "baseUrl"]);
    expect(first.stdout().trim().split("\n")).toHaveLength(1);
    const saved = JSON.parse(readFileSync(join(dir, "bootstrap.json"), "utf8"));
    expect(saved).toEqual(boot);
    expect(statSync(join(dir, "bootstrap.json")).mode & 0o777).toBe(0o600);
    const h = { authorization: `Bearer ${boot.apiKey}`, "content-type": "application/json" };
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await fetch(`${boot.baseUrl}/v2/accounts/${boot.accountId}/routes`, {
        method: "POST",
        headers: { ...h, "idempotency-key": `k9-${i}` },
        body: JSON.stringify({ name: `k9-${i}`, url: "https://h.example.com/", recipient: "" }),
      });
      expect(r.status).toBe(201);
      ids.push(((await r.json()) as { id: string }).id);
    }
    first.proc.kill("SIGKILL");
    await exited(first.proc);

    const second = await spawnCli(cli, env, dir);
    try {
      expect([second.boot.accountId, second.boot.apiKey]).toEqual([boot.accountId, boot.apiKey]);
      const r = await fetch(`${second.boot.baseUrl}/v2/accounts/${boot.accountId}/routes`, { headers: h });
      const body = (await r.json()) as { data: { id: string }[] };
      expect(body.data.map((x) => x.id)).toEqual(ids);
      const replay = await fetch(`${second.boot.baseUrl}/v2/accounts/${boot.accountId}/routes`, {
        method: "POST",
        headers: { ...h, "idempotency-key": "k9-19" },
        body: JSON.stringify({ name: "k9-19", url: "https://h.example.com/", recipient: "" }),
      });
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
    } finally {
      second.proc.kill("SIGTERM");
      expect(await exited(second.proc)).toBe(0);
    }
  }, 30_000);
});
