// The SDK classes, derived from the resource declarations (provider/resources/*.ts): a field is
// added in one place, the declaration's zod schema, and each class follows.
//   - `ArgsOf<Spec, Fields>`: the declaration's inputs as Pulumi inputs. Types come from the zod
//     schema; names, optionality and TSDoc from `Fields`, the kind's interface generated from the
//     same schema and its describe() texts (sdk/nodejs/generated/fields.ts, `npm run gen:sdk`).
//   - `OutputsOf<Spec, Fields, Names>`: every input (but write-only secrets) as an output, plus the
//     named service-only outputs, typed from the service record (camelCased, as the provider stores
//     it) or the one-time secrets (`createOnly`).
//   - `registeredProps`: what a class registers, from the same declaration's generated `Registration`
//     (plain data: importing the SDK loads neither zod nor the declarations).
// Which service-only outputs a class exposes is a choice made per kind (each registered property
// costs the engine work on every resource of every run: bench/RESULTS.md), checked against the
// record by the type of `Names`.
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { SnakeToCamel } from "../../../provider/core/casing";
import type { ROTATION_OUTPUTS } from "../../../provider/core/rotating/outputs";
import type { CommonArgs } from "./common";

/** What the derivation reads of a declaration (its precise types: declarations use `satisfies`). */
export interface Declared {
  inputs: z.ZodObject;
  record: z.ZodType;
  createOnly?: Record<string, string>;
  writeOnly?: readonly string[];
  reshapedOutputs?: Record<string, z.ZodType>;
  rotating?: { secret: string; carried?: readonly string[] };
}

/** A canonical value as a program may give it: lists take inputs element by element. */
type InputOf<T> = [T] extends [readonly (infer E)[]] ? pulumi.Input<pulumi.Input<E>[]> : pulumi.Input<T>;

type In<S extends Declared> = z.input<S["inputs"]>;
type Canonical<S extends Declared> = z.output<S["inputs"]>;

/** The generated field list of a declaration: one property per input, no other. */
export type FieldsOf<S extends Declared> = { [K in keyof In<S>]?: unknown };

/** The declaration's own inputs, as a class's arguments (plus `connection` and `adoptId`). */
export type ArgsOf<S extends Declared, Fields extends FieldsOf<S>> = CommonArgs & {
  [K in keyof Fields]: InputOf<Exclude<Canonical<S>[K & keyof Canonical<S>], undefined>>;
};

/** The service record's fields under their output names. */
export type RecordOutputs<S extends Declared> = {
  [K in keyof z.output<S["record"]> as SnakeToCamel<K & string>]: z.output<S["record"]>[K];
};

/** The one-time secrets the service returns at creation (always strings; "" when adopted). */
export type SecretOutputs<S extends Declared> = { [K in keyof NonNullable<S["createOnly"]>]: string };

/** Outputs the provider makes itself (`reshapedOutputs`), not named after a record field. */
export type ReshapedOutputs<S extends Declared> = {
  [K in keyof NonNullable<S["reshapedOutputs"]>]: z.output<NonNullable<S["reshapedOutputs"]>[K]>;
};

/** What a rotating kind keeps of its schedule (provider/core/rotating/outputs.ts), the previous secret included. */
export type RotationOutputs<S extends Declared> = S extends { rotating: { secret: infer N extends string } }
  ? { [K in keyof typeof ROTATION_OUTPUTS]: z.output<(typeof ROTATION_OUTPUTS)[K]> } & {
      [K in `previous${Capitalize<N | Carried<S>>}`]: string | undefined;
    }
  : object;

type Carried<S extends Declared> = S extends { rotating: { carried: readonly (infer C extends string)[] } } ? C : never;

/** Outputs a class can expose besides its inputs. */
export type OutputName<S extends Declared> =
  keyof RecordOutputs<S> | keyof SecretOutputs<S> | keyof ReshapedOutputs<S> | keyof RotationOutputs<S>;

type WriteOnly<S extends Declared> = S["writeOnly"] extends readonly (infer W)[] ? W : never;

/**
 * A field's type, boxed while the mapped types below decide which fields exist: TypeScript strips
 * `undefined` from a property's type when a mapping makes it required, and an optional input
 * the service never echoes (`AccountMember.name`) must stay `string | undefined`.
 */
type Box<T> = { value: T };
type Boxed<T> = { [K in keyof T]: Box<T[K]> };

/** The inputs echoed as outputs: the record's type where the service reports the field back. */
type InputOutputs<S extends Declared, Fields> = {
  [K in keyof Fields as K extends WriteOnly<S> ? never : K]: Box<
    K extends keyof RecordOutputs<S> ? RecordOutputs<S>[K] : Canonical<S>[K & keyof Canonical<S>]
  >;
};

type Outputs<S extends Declared, Fields, Names extends OutputName<S>> = InputOutputs<S, Fields> &
  Pick<Boxed<SecretOutputs<S>>, Names & keyof SecretOutputs<S>> &
  Pick<Boxed<RecordOutputs<S>>, Exclude<Names, keyof SecretOutputs<S>> & keyof RecordOutputs<S>> &
  Pick<
    Boxed<ReshapedOutputs<S>>,
    Exclude<Names, keyof SecretOutputs<S> | keyof RecordOutputs<S>> & keyof ReshapedOutputs<S>
  > &
  Pick<
    Boxed<RotationOutputs<S>>,
    Exclude<Names, keyof SecretOutputs<S> | keyof RecordOutputs<S> | keyof ReshapedOutputs<S>> &
      keyof RotationOutputs<S>
  >;

/** A class's outputs: `Override` replaces the type of outputs the kind reshapes (its `outputsOf`). */
export type OutputsOf<
  S extends Declared,
  Fields extends FieldsOf<S>,
  Names extends OutputName<S>,
  Override = unknown,
> = {
  readonly [K in keyof Outputs<S, Fields, Names>]-?: pulumi.Output<
    K extends keyof Override ? Override[K] : Exclude<Outputs<S, Fields, Names>[K], undefined>["value"]
  >;
};

/** What a class registers at run time (generated from its declaration: sdk/nodejs/generated/fields.ts). */
export interface Registration {
  readonly inputs: readonly string[];
  readonly writeOnly: readonly string[];
  readonly secretOutputs: readonly string[];
  /** The service-only outputs the class exposes (its declaration's `sdk.outputs`). */
  readonly outputs: readonly string[];
}

/**
 * The properties a class registers: each input the declaration knows, taken from `args` (write-only
 * ones as Pulumi secrets), then each exposed output as `undefined` (filled in by the provider).
 */
export function registeredProps(
  registration: Registration,
  args: object,
  outputs: readonly string[],
): Record<string, unknown> {
  const given = args as Record<string, unknown>;
  const props: Record<string, unknown> = {};
  for (const field of registration.inputs) {
    const value = given[field];
    props[field] = registration.writeOnly.includes(field) && value !== undefined ? pulumi.secret(value) : value;
  }
  for (const output of outputs) props[output] = undefined;
  return props;
}
