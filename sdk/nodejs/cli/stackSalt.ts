#!/usr/bin/env node
// txmail-stack-salt: pins the current stack's idempotency salt in its configuration
// (`txmail:stackSalt`) to the value its state already uses — run once per stack, before upgrading
// pulumi-txmail on the native face (a plugin upgrade names a new default provider, which would draw
// a new salt: docs/guide/behaviour.md#the-stack-salt). Idempotent: a pinned stack is left as it is.
//
//   npx txmail-stack-salt [--stack NAME] [--cwd DIR]
import { LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { pinSalt } from "../internal/pinSalt";

const USAGE = "usage: txmail-stack-salt [--stack NAME] [--cwd DIR]  (the Pulumi project's directory; default .)";

async function main(argv: string[]): Promise<number> {
  let stackName: string | undefined;
  let cwd = process.cwd();
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if ((flag === "--stack" || flag === "--cwd") && value && !value.startsWith("--")) {
      if (flag === "--stack") stackName = value;
      else cwd = value;
      i++;
    } else {
      process.stderr.write(
        `txmail-stack-salt: ${flag === "--help" ? "" : `unknown or incomplete argument '${flag}'\n`}${USAGE}\n`,
      );
      return flag === "--help" ? 0 : 2;
    }
  }
  const workspace = await LocalWorkspace.create({ workDir: cwd });
  const name = stackName ?? (await workspace.stack())?.name;
  if (!name) {
    process.stderr.write(`txmail-stack-salt: no stack selected in ${cwd}: pass --stack NAME\n${USAGE}\n`);
    return 2;
  }
  const pinned = await pinSalt(await Stack.select(name, workspace));
  const said = {
    "already pinned": `txmail:stackSalt is already pinned for stack ${name}; nothing changed`,
    state: `pinned txmail:stackSalt for stack ${name} to the salt ${pinned.where} holds`,
    new: `pinned a new txmail:stackSalt for stack ${name} (its state holds none yet)`,
  }[pinned.source];
  process.stdout.write(`${said}\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`txmail-stack-salt: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
