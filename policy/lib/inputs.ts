// Reading resource inputs as policies see them: plain JSON (secrets already unwrapped by the
// policy server), possibly unknown at preview (see unknowns.ts), possibly not the type the SDK
// declares (a JavaScript program can pass anything, and the policy must not crash on it).
import { readUnknownAware, UNKNOWN } from "./unknowns";

export type Read<T> = { state: "absent" } | { state: "unknown" } | { state: "known"; value: T };

/** One input property; `undefined` and `null` both mean "not set". */
export function readProp(props: object, key: string): Read<unknown> {
  const value = readUnknownAware(props, key);
  if (value === UNKNOWN) return { state: "unknown" };
  if (value === undefined || value === null) return { state: "absent" };
  return { state: "known", value };
}

export interface StringList {
  /** Known string elements with their index in the program's list. */
  strings: { index: number; value: string }[];
  /** Known elements that are not strings (null from an `undefined` element, numbers, …). */
  others: { index: number; value: unknown }[];
  /** Indexes of elements that are unknown at preview. */
  unknown: number[];
  /** The input was a single value rather than a list (it is read as a one-element list). */
  notAList: boolean;
}

/** A `string[]` input, element by element, so that one unknown element does not hide the others. */
export function readStringList(props: object, key: string): Read<StringList> {
  const r = readProp(props, key);
  if (r.state !== "known") return r;
  const list: StringList = { strings: [], others: [], unknown: [], notAList: !Array.isArray(r.value) };
  const elements: object = Array.isArray(r.value) ? r.value : [r.value];
  const length = readUnknownAware(elements, "length");
  const count = typeof length === "number" ? length : 0;
  for (let index = 0; index < count; index++) {
    const value = readUnknownAware(elements, index);
    if (value === UNKNOWN) list.unknown.push(index);
    else if (typeof value === "string") list.strings.push({ index, value });
    else list.others.push({ index, value });
  }
  return { state: "known", value: list };
}

/** Short, safe rendering of an unexpected value for a message. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string") return `'${value}'`;
  if (typeof value === "object") return Array.isArray(value) ? "a list" : "an object";
  return `${typeof value} ${String(value)}`;
}
