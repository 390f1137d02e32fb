// Upgrading a stack made before idempotency keys had a stack salt: the first `pulumi up` with this
// version adds the StackSalt resource and changes nothing else — no update, no replacement of any
// existing object (diff ignores the new `__stackSalt` input). The old state is made by removing the
// salt from a fresh stack's checkpoint, which is exactly what a stack of the earlier version holds.
import type { Deployment } from "@pulumi/pulumi/automation";
import * as path from "node:path";
import { STACK_SALT_TYPE } from "../../sdk/nodejs/internal/stackSalt";
import { controlClient } from "../../support/control";
import { createTestStack, type TestStack } from "./harness";
import { startService, type TestService } from "../../support/service";
import { stackSaltOf } from "../../support/stackState";

jest.setTimeout(10 * 60_000);

let svc: TestService;
let t: TestStack;

afterAll(async () => {
  await t?.dispose();
  await svc?.close();
});

interface Resource {
  urn: string;
  type: string;
  inputs?: Record<string, unknown>;
  propertyDependencies?: Record<string, string[]>;
}

test("a stack without a salt gets one on its next up; nothing else changes", async () => {
  svc = await startService();
  t = await createTestStack({ programDir: path.join(__dirname, "programs", "all"), name: "upg", config: svc.config() });
  await t.up();

  // Secrets stay encrypted: the Automation API's exportStack would decrypt them.
  const exported = JSON.parse(await t.exportText(false)) as Deployment;
  const deployment = exported.deployment as { resources: Resource[] };
  const saltUrn = deployment.resources.find((r) => r.type === STACK_SALT_TYPE)!.urn;
  // Resources hold the salt's value, not a dependency on it (checkpoint size: sdk/nodejs/internal/stackSalt.ts).
  expect(JSON.stringify(deployment).split(saltUrn).length - 1).toBe(1);
  deployment.resources = deployment.resources.filter((r) => r.urn !== saltUrn);
  for (const r of deployment.resources) {
    delete r.inputs?.__stackSalt;
    delete r.propertyDependencies?.__stackSalt;
  }
  await t.stack.importStack(exported);
  expect(await stackSaltOf(t)).toBeUndefined();
  expect(await t.exportText()).not.toContain("__stackSalt");

  await controlClient(svc).resetCounters();
  const up = await t.up();
  expect(up.summary.resourceChanges).toEqual({ create: 1, same: expect.any(Number) });
  expect((await controlClient(svc).counters()).writes).toBe(0);
  expect(await stackSaltOf(t)).toMatch(/^[\w-]{22}$/);
});
