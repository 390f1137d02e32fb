import type { EngineEvent } from "@pulumi/pulumi/automation";
import { countEvent, zeroCounts } from "../../../fleet/stepCounts";

const meta = (op: string, type = "pulumi-nodejs:dynamic/txmail:Route", diffs?: string[]) =>
  ({ op, urn: `urn:pulumi:s::p::${type}::x`, type, provider: "", diffs }) as never;
const outputs = (op: string, type?: string, diffs?: string[]) =>
  ({ sequence: 1, timestamp: 1, resOutputsEvent: { metadata: meta(op, type, diffs) } }) as EngineEvent;
const planned = (op: string) =>
  ({ sequence: 1, timestamp: 1, resourcePreEvent: { metadata: meta(op) } }) as EngineEvent;
const failed = (type?: string) =>
  ({
    sequence: 1,
    timestamp: 1,
    resOpFailedEvent: { metadata: meta("create", type), status: 0, steps: 0 },
  }) as EngineEvent;

describe("step counts", () => {
  it("counts finished steps of an update by kind; a replacement once", () => {
    const c = zeroCounts();
    for (const op of [
      "create",
      "create",
      "update",
      "same",
      "delete",
      "create-replacement",
      "replace",
      "delete-replaced",
    ])
      countEvent(c, outputs(op), false);
    countEvent(c, failed(), false);
    expect(c).toEqual({ created: 2, updated: 1, replaced: 1, deleted: 1, same: 1, failed: 1 });
  });

  it("ignores the engine's own resources (the stack, default providers)", () => {
    const c = zeroCounts();
    countEvent(c, outputs("create", "pulumi:pulumi:Stack"), false);
    countEvent(c, outputs("create", "pulumi:providers:pulumi-nodejs"), false);
    countEvent(c, failed("pulumi:pulumi:Stack"), false);
    expect(c).toEqual(zeroCounts());
  });

  it("a preview counts planned steps, not finished ones", () => {
    const c = zeroCounts();
    countEvent(c, planned("create"), true);
    countEvent(c, outputs("create"), true);
    countEvent(c, planned("create"), false);
    expect(c.created).toBe(1);
  });

  it("a refresh step counts as an update only when it found a difference", () => {
    const c = zeroCounts();
    countEvent(c, outputs("refresh", undefined, ["url"]), false);
    countEvent(c, outputs("refresh", undefined, []), false);
    expect(c).toMatchObject({ updated: 1, same: 1 });
  });
});
