#!/usr/bin/env node
// txmail-import-plan: writes, on stdout, a `pulumi import --file` document for every object of a
// (sub) account that the native provider can import; says on stderr what it found, what it left out
// and why, and which secrets the service will not show again.
import { createClient } from "../../provider/client";
import type { Kind } from "../../provider/api/kinds";
import { declarations } from "../../provider/resources";
import { collectImportables } from "./collect";
import { USAGE, parseOptions } from "./options";
import { importPlan } from "./plan";

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2), process.env);
  if ("problem" in options) {
    const help = options.problem === "help";
    process.stderr.write(`${help ? "" : `txmail-import-plan: ${options.problem}\n`}${USAGE}\n`);
    return help ? 0 : 2;
  }
  const client = createClient({ apiKey: options.apiKey, accountId: options.accountId, baseUrl: options.baseUrl });
  const { found, skipped } = await collectImportables(
    { list: (path, schema) => client.list(path, schema), get: (path, schema) => client.get(path, schema) },
    options.accountId,
  );
  process.stdout.write(`${JSON.stringify(importPlan(found, options.provider), null, 2)}\n`);

  const counts = new Map<Kind, number>();
  for (const o of found) counts.set(o.kind, (counts.get(o.kind) ?? 0) + 1);
  const summary = [...counts].map(([kind, n]) => `${n} ${kind}`).join(", ") || "nothing";
  process.stderr.write(`txmail-import-plan: account ${options.accountId}: ${summary}.\n`);
  for (const s of skipped) process.stderr.write(`txmail-import-plan: ${s.kind} skipped: ${s.reason}.\n`);
  // The outputs the service shows only at creation (imported empty), of the kinds found.
  const oneTime = [...counts.keys()].flatMap((k) =>
    Object.keys(declarations[k].createOnly ?? {}).map((o) => `${k}.${o}`),
  );
  if (oneTime.length > 0) {
    process.stderr.write(
      `txmail-import-plan: the service shows ${oneTime.join(", ")} ` +
        `only at creation: they are imported empty. Replace an object (\`pulumi up --replace <urn>\`) to get a new one.\n`,
    );
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`txmail-import-plan: ${(err as Error).message}\n`);
    process.exit(1);
  },
);
