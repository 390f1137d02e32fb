// Jest-only helper (it returns `it`), in a file of its own so harness.ts stays free of Jest globals.
import type { Face } from "./harness";

/**
 * Inside a suite parameterised over FACES: `it` on the face `only`, nothing (no test registered)
 * on the other. For a scenario that the generic provider below both faces decides alone: the
 * faces translate the same calls (their translation has tests of its own), so running it twice
 * proves nothing more.
 */
export function onFace(face: Face, only: Face): typeof it {
  return face === only ? it : ((() => undefined) as unknown as typeof it);
}
