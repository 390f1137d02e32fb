// The layers' arrows, checked on the sources: the service's contract (provider/api) depends on no
// other layer; the emulator and the policy pack depend on the contract only; provider/core never
// reaches up into resources, kinds or the SDK; nothing but the native face itself imports native/;
// what runs outside the test suite (support/, bench/, acceptance/ and the sources) never imports
// test/, and the e2e suite's files are its own (the shared pieces are in support/). Run alone:
// bash scripts/test.sh test/unit/layers.test.ts (a failure lists each offending import with its file).
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../../support/root";

/** Every .ts file under `dir` (relative to the repository), node_modules excluded. */
function sources(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(path.join(REPO_ROOT, d), { withFileTypes: true })) {
      const rel = path.join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== "node_modules") walk(rel);
      } else if (e.name.endsWith(".ts") && !e.name.endsWith(".d.ts")) out.push(rel);
    }
  };
  if (fs.existsSync(path.join(REPO_ROOT, dir))) walk(dir);
  // A layer moved or renamed would otherwise pass with nothing to check.
  if (out.length === 0) throw new Error(`no .ts file under ${dir}: was the layer moved or renamed?`);
  return out;
}

/** Relative imports of a file (import/export … from, import x = require, require()), resolved to repository paths. */
export function localImports(file: string): string[] {
  return importsIn(fs.readFileSync(path.join(REPO_ROOT, file), "utf8"), file);
}

/** Relative imports in `text`, the source of `file`, resolved to repository paths. */
function importsIn(text: string, file: string): string[] {
  // Either quote; `import "./x"` (for its side effects) is an arrow too.
  const specs = [
    ...text.matchAll(/(?:import|export)\s[^;]*?from\s+(["'])([^"']+)\1/g),
    ...text.matchAll(/^\s*import\s+(["'])([^"']+)\1/gm),
    ...text.matchAll(/require\(\s*(["'])([^"']+)\1\s*\)/g),
    ...text.matchAll(/import\(\s*(["'])([^"']+)\1\s*\)/g),
  ].map((m) => m[2]!);
  return specs.filter((s) => s.startsWith(".")).map((s) => path.normalize(path.join(path.dirname(file), s)));
}

/** [layer, what it may import besides itself] */
const RULES: Array<[string, string[]]> = [
  ["provider/api", []],
  ["emulator", ["provider/api"]],
  ["policy", ["provider/api"]],
  ["provider/client", ["provider/api"]],
  ["provider/core", ["provider/api", "provider/client"]],
  // DNS records, shared by the provider's resources and the fleet: above the generic provider, below both.
  ["provider/dns", ["provider/api", "provider/client", "provider/core"]],
  // The fleet command is a face: it drives the SDK's Tenant component and nothing above it. Its
  // drift inventory asks the policy pack's rules what they would refuse in a hand-made object.
  ["fleet", ["sdk", "provider", "policy"]],
  // The SDK is shipped: it stands on the provider alone. Its field-list generator, which finds the
  // checkout through support/, lives in tools/codegen and stays out of the npm package.
  ["sdk", ["provider"]],
];

/** The folders of TypeScript outside test/: the product, its generators, the benchmarks, the acceptance run, support/. */
const NOT_TESTS = [
  "provider",
  "sdk",
  "native",
  "emulator",
  "policy",
  "fleet",
  "docs",
  "acceptance",
  "bench",
  "support",
  "tools/codegen",
];

const within = (p: string, layer: string) => p === layer || p.startsWith(`${layer}/`);

/**
 * The groups of files that import one another round a circle (type-only imports count: a circle of
 * types still ties the files' meaning together), each sorted; `imports` maps a file to the files it
 * imports. Tarjan's strongly connected components: every group of two or more, or a file importing itself.
 */
export function importCycles(imports: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of imports.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || (imports.get(file) ?? []).includes(file)) cycles.push(group.sort());
  };
  for (const file of imports.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

/** Each source file's imports, resolved to the source files they name (`x` is x.ts or x/index.ts). */
function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  const resolve = (target: string) =>
    [`${target}.ts`, path.join(target, "index.ts")].find((f) => known.has(f)) ??
    (known.has(target) ? target : undefined);
  return new Map(
    files.map((file) => [file, localImports(file).flatMap((t) => resolve(t) ?? [])] as [string, string[]]),
  );
}

describe("layers", () => {
  it.each(RULES)("%s imports only itself and %j", (layer, allowed) => {
    const offending = sources(layer).flatMap((file) =>
      localImports(file)
        .filter((target) => !within(target, layer) && !allowed.some((a) => within(target, a)))
        .map((target) => `${file} → ${target}`),
    );
    expect(offending).toEqual([]);
  });

  // The native provider is a face, like the SDK: it sits on the provider, which never knows it.
  it.each(["provider", "sdk", "emulator", "policy"])("%s never imports native/", (layer) => {
    const offending = sources(layer).flatMap((file) =>
      localImports(file)
        .filter((target) => within(target, "native"))
        .map((target) => `${file} → ${target}`),
    );
    expect(offending).toEqual([]);
  });

  // support/root: the schema generator (native/schema) writes into the checkout it finds.
  it("native imports only itself, provider/, sdk/ and support/root", () => {
    const offending = sources("native").flatMap((file) =>
      localImports(file)
        .filter((target) => !["native", "provider", "sdk", "support/root"].some((a) => within(target, a)))
        .map((target) => `${file} → ${target}`),
    );
    expect(offending).toEqual([]);
  });

  // Tests import what they test and the support module; nothing the suite does not run imports a test.
  it.each(NOT_TESTS)("%s never imports test/", (layer) => {
    const offending = sources(layer).flatMap((file) =>
      localImports(file)
        .filter((target) => within(target, "test"))
        .map((target) => `${file} → ${target}`),
    );
    expect(offending).toEqual([]);
  });

  it("only test/e2e imports test/e2e (what others share with it is in support/)", () => {
    const offending = [...NOT_TESTS, "test"].flatMap((layer) =>
      sources(layer)
        .filter((file) => !within(file, "test/e2e"))
        .flatMap((file) =>
          localImports(file)
            .filter((target) => within(target, "test/e2e"))
            .map((target) => `${file} → ${target}`),
        ),
    );
    expect(offending).toEqual([]);
  });

  // A circle makes two files one: neither can be read, tested or moved without the other.
  it("no import cycle among the sources (outside test/)", () => {
    expect(importCycles(importGraph(NOT_TESTS.flatMap(sources)))).toEqual([]);
  });

  it("finds a circle of imports, and none in a line", () => {
    const graph = (arrows: Record<string, string[]>) => new Map(Object.entries(arrows));
    expect(importCycles(graph({ a: ["b"], b: ["c"], c: ["a"], d: ["a"] }))).toEqual([["a", "b", "c"]]);
    expect(importCycles(graph({ a: ["a"] }))).toEqual([["a"]]);
    expect(importCycles(graph({ a: ["b", "c"], b: ["c"], c: [] }))).toEqual([]);
  });

  it("reads every form of import: either quote, side effects only, require, dynamic", () => {
    const text = [
      `import { a } from "./double";`,
      `import b from './single';`,
      `import "./sideEffect";`,
      `import './sideEffectSingle';`,
      `const c = require('../required');`,
      `export * from "./reexported";`,
      `void import("./dynamic");`,
      `import * as fs from "node:fs";`,
    ].join("\n");
    expect(importsIn(text, "provider/core/x.ts").sort()).toEqual(
      ["double", "single", "sideEffect", "sideEffectSingle", "reexported", "dynamic"]
        .map((f) => path.normalize(`provider/core/${f}`))
        .concat(path.normalize("provider/required"))
        .sort(),
    );
  });

  it("fails on a layer with no sources instead of passing it", () => {
    expect(() => sources("provider/no-such-layer-dir-is-empty")).toThrow(/no \.ts file under/);
  });

  it("sees the imports it judges (a known arrow is found)", () => {
    expect(localImports("provider/core/factory.ts")).toContain(path.normalize("provider/core/connection"));
    expect(localImports("bench/up.ts")).toContain(path.normalize("support/stack"));
  });
});
