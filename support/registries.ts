// Real package registries on loopback, for the release rehearsal (test/e2e/release): Verdaccio (npm),
// pypiserver (PyPI), a static file server (the Go module proxy's layout, the plugin's release
// page) and a Maven repository (serveMavenRepository). scripts/setup.sh --with release installs the servers into the tools cache and seeds their
// contents once, with network (`node dist/support/registries.js seed-npm …`); the rehearsal then runs
// them with no uplink, so every request it makes goes to 127.0.0.1.
import { freePort } from "./ports";
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { killGroup } from "./processes";
import { promisify } from "node:util";
import { TOOLS_DIR } from "./root";

const run = promisify(execFile);

/** What scripts/setup.sh --with release links under .tools/registry/, resolved to the cache. */
export function registryTools(): { verdaccio: string; python: string; wheelhouse: string; npmStorage: string } {
  const at = (name: string) => {
    const link = path.join(TOOLS_DIR, "registry", name);
    if (!fs.existsSync(link)) throw new Error(`no ${link}: run 'bash scripts/setup.sh --with release' first`);
    return fs.realpathSync(link);
  };
  return {
    verdaccio: at("verdaccio"),
    python: at("python"),
    wheelhouse: at("wheelhouse"),
    npmStorage: at("npm-storage"),
  };
}

export interface Server {
  url: string;
  /** Every request path, in order (the static server only). */
  requests: string[];
  close(): Promise<void>;
}

/** Polls `url` until it answers (any status), or fails with the process's output. */
async function waitFor(url: string, child: ChildProcess, output: () => string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited (${child.exitCode}):\n${output()}`);
    try {
      await fetch(url);
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`${url}: no answer in ${timeoutMs} ms:\n${output()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** Starts `command`, waits for `probe` on its port, and gives a close that ends it. */
async function startProcess(command: string, args: (port: number) => string[], probe: string): Promise<Server> {
  const port = await freePort();
  // Its own process group: closing it ends whatever it started too.
  const child = spawn(command, args(port), { stdio: ["ignore", "pipe", "pipe"], detached: true });
  const end = () => {
    if (child.pid === undefined || !killGroup(child.pid)) child.kill("SIGKILL");
  };
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
  child.stderr.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
  const url = `http://127.0.0.1:${port}/`;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    await waitFor(`${url}${probe}`, child, () => output);
  } catch (err) {
    end();
    throw err;
  }
  return {
    url,
    requests: [],
    close: async () => {
      if (child.exitCode === null) end();
      await exited;
    },
  };
}

/**
 * Verdaccio (the npm registry server) on loopback with `home`/storage as its storage (its config
 * and users beside it); anyone may read, a registered user may publish. With `uplink`, packages it
 * lacks come from `uplink` (seeding only).
 */
export async function startVerdaccio(verdaccio: string, home: string, uplink?: string): Promise<Server> {
  const config = path.join(home, "config.yaml");
  fs.mkdirSync(path.join(home, "storage"), { recursive: true });
  const proxy = uplink ? "\n    proxy: upstream" : "";
  fs.writeFileSync(
    config,
    [
      `storage: ${JSON.stringify(path.join(home, "storage"))}`,
      // Publishing needs a logged-in user: the rehearsal registers one (npmLogin).
      `auth:\n  htpasswd:\n    file: ${JSON.stringify(path.join(home, "htpasswd"))}`,
      uplink ? `uplinks:\n  upstream:\n    url: ${uplink}\n    timeout: 60s` : "uplinks: {}",
      `packages:\n  "**":\n    access: $all\n    publish: $authenticated${proxy}`,
      "logs: { type: stdout, format: pretty, level: warn }",
      "server: { keepAliveTimeout: 0 }",
      "",
    ].join("\n"),
  );
  const bin = path.join(verdaccio, "node_modules", "verdaccio", "bin", "verdaccio");
  return startProcess(process.execPath, (port) => [bin, "--config", config, "--listen", `127.0.0.1:${port}`], "-/ping");
}

/** Registers a user at a Verdaccio and returns its token (a throwaway; never print it). */
export async function npmLogin(registry: string): Promise<string> {
  const name = `rehearsal-${process.pid}`;
  const res = await fetch(new URL(`-/user/org.couchdb.user:${name}`, registry), {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name, password: `pw-${process.pid}-${Date.now()}` }),
  });
  const body = (await res.json()) as { token?: string };
  if (!res.ok || !body.token) throw new Error(`registering a user at ${registry}: HTTP ${res.status}`);
  return body.token;
}

/** pypiserver on loopback serving (and accepting uploads into) `packages`, never falling back to PyPI. */
export async function startPypiserver(venv: string, packages: string): Promise<Server> {
  return startProcess(
    path.join(venv, "bin", "pypi-server"),
    (port) => ["run", "-i", "127.0.0.1", "-p", String(port), "-a", ".", "-P", ".", "--disable-fallback", packages],
    "simple/",
  );
}

/**
 * A static file server on loopback over `roots` (the first holding a path answers): a Go module
 * proxy directory, a plugin release page. Records every request path.
 */
export async function serveFiles(roots: string[]): Promise<Server> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    requests.push(url.pathname);
    const relative = path.normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.(\/|$))+/, "");
    for (const root of roots) {
      const file = path.join(root, relative);
      if (file.startsWith(root) && fs.existsSync(file) && fs.statSync(file).isFile()) {
        res.writeHead(200, { "content-length": fs.statSync(file).size });
        return void fs.createReadStream(file).pipe(res);
      }
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface MavenServer extends Server {
  /** Every path a client PUT (deployed), in order. */
  uploads: string[];
}

/** A request's path as a file under `root`, or undefined when it would leave it. */
function under(root: string, urlPath: string): string | undefined {
  const file = path.join(root, path.normalize(decodeURIComponent(urlPath)));
  return file.startsWith(root + path.sep) ? file : undefined;
}

/**
 * A Maven repository on loopback, as Maven's own client speaks to one (HTTP GET to resolve, PUT to
 * deploy): what clients PUT is written under `hosted` (Maven uploads each file, its .md5 and .sha1,
 * and maven-metadata.xml, which it first GETs and merges), and a GET is answered from `hosted`,
 * then from `central`: a Maven *local* repository (setup's, read only) standing in for Maven Central,
 * as Verdaccio's seeded storage stands in for npm. A local repository keeps no checksums and names
 * its metadata after the repository it came from, so for `central` a .sha1/.md5 is computed from the
 * file and maven-metadata.xml is its maven-metadata-central.xml. Records every GET and PUT path.
 */
export async function serveMavenRepository(hosted: string, central: string): Promise<MavenServer> {
  const requests: string[] = [];
  const uploads: string[] = [];
  const fromCentral = (file: string): Buffer | undefined => {
    const exists = (f: string) => fs.existsSync(f) && fs.statSync(f).isFile();
    if (exists(file)) return fs.readFileSync(file);
    const checksum = /\.(md5|sha1)$/.exec(file);
    const base = checksum ? file.slice(0, -checksum[0].length) : "";
    if (checksum && exists(base)) {
      const data = fromCentral(base);
      return data && Buffer.from(createHash(checksum[1]!).update(data).digest("hex"));
    }
    const metadata = file.replace(/\/maven-metadata\.xml$/, "/maven-metadata-central.xml");
    return metadata !== file && exists(metadata) ? fs.readFileSync(metadata) : undefined;
  };
  const server = http.createServer((req, res) => {
    const urlPath = new URL(req.url ?? "/", "http://localhost").pathname;
    if (req.method === "PUT") {
      uploads.push(urlPath);
      const file = under(hosted, urlPath);
      if (!file) return void res.writeHead(403).end();
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        // Whole or not at all: a GET never sees half a file.
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(`${file}.part`, Buffer.concat(chunks));
        fs.renameSync(`${file}.part`, file);
        res.writeHead(201).end();
      });
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") return void res.writeHead(405).end();
    requests.push(urlPath);
    const own = under(hosted, urlPath);
    const mirrored = under(central, urlPath);
    const data =
      own && fs.existsSync(own) && fs.statSync(own).isFile() ? fs.readFileSync(own) : mirrored && fromCentral(mirrored);
    if (!data) return void res.writeHead(404).end();
    res.writeHead(200, { "content-length": data.length });
    res.end(req.method === "HEAD" ? undefined : data);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    uploads,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The npm client's arguments that keep it on one registry, with its own cache and no user config. */
export function npmArgs(registry: string, userconfig: string, cache: string): string[] {
  return [
    `--registry=${registry}`,
    `--userconfig=${userconfig}`,
    `--cache=${cache}`,
    "--no-audit",
    "--no-fund",
    "--loglevel=error",
  ];
}

/**
 * Seeds `home`/storage (setup, with network): Verdaccio with the npm registry as its uplink, and an npm
 * install through it, from an empty npm cache, of what a user's project needs: the package's own
 * dependencies (the ranges in its package.json) and a TypeScript program's (typescript and
 * @types/node, at the pins the project uses).
 */
async function seedNpm(verdaccio: string, home: string, manifestFile: string): Promise<void> {
  const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8")) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "txmail-seed-"));
  const server = await startVerdaccio(verdaccio, home, "https://registry.npmjs.org/");
  try {
    const project = path.join(work, "project");
    fs.mkdirSync(project);
    fs.writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify({
        name: "seed",
        private: true,
        dependencies: manifest.dependencies,
        devDependencies: {
          typescript: manifest.devDependencies.typescript,
          "@types/node": manifest.devDependencies["@types/node"],
        },
      }),
    );
    fs.writeFileSync(path.join(work, "npmrc"), "");
    await run("npm", ["install", ...npmArgs(server.url, path.join(work, "npmrc"), path.join(work, "cache"))], {
      cwd: project,
      maxBuffer: 64 * 1024 * 1024,
    });
  } finally {
    await server.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const [command, ...args] = process.argv.slice(2);
  if (command !== "seed-npm" || args.length !== 3) {
    console.error("usage: node dist/support/registries.js seed-npm <verdaccio dir> <home dir> <package.json>");
    process.exit(2);
  }
  seedNpm(args[0]!, args[1]!, args[2]!).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
