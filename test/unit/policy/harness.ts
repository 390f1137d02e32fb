// Calls a rule's validate function the way @pulumi/policy's server does (server.js): props wrapped
// in the real unknownCheckingProxy, a getConfig returning the policy's config, and a
// reportViolation that collects messages.
import {
  type Policy,
  type PolicyResource,
  type ResourceValidation,
  type ResourceValidationArgs,
  type StackValidation,
  unknownCheckingProxy,
} from "@pulumi/policy";
import { type Kind, TYPES } from "../../../policy/lib/resources";
import { nativeTypeToken } from "../../../provider/api/typeTokens";

/**
 * Which face's type tokens the fake resources carry (the dynamic one unless a suite asks for the
 * native one): nativeTokens.test.ts reruns the rules' suites with `txmail:index:<Kind>`.
 */
let face: "dynamic" | "native" = "dynamic";
export function useFace(f: "dynamic" | "native"): void {
  face = f;
}

/** What the engine sends for an unknown value from a Node program (@pulumi/pulumi runtime/rpc). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export interface Call {
  kind: Kind | string;
  name?: string;
  props: Record<string, unknown>;
  config?: Record<string, unknown>;
  /** Pass props without the proxy (raw sentinels), as a caller other than the server might. */
  raw?: boolean;
  /** The parent's type token, as a component's child carries it in its URN (`<parent>$<type>`). */
  parentType?: string;
}

export function fakeArgs(call: Call): ResourceValidationArgs {
  const known = call.kind in TYPES;
  const type = !known ? call.kind : face === "native" ? nativeTypeToken(call.kind) : TYPES[call.kind as Kind];
  const name = call.name ?? "res";
  return {
    type,
    name,
    urn: `urn:pulumi:dev::txmail-app::${call.parentType ? `${call.parentType}$` : ""}${type}::${name}`,
    props: call.raw ? call.props : unknownCheckingProxy(call.props),
    opts: {
      protect: false,
      ignoreChanges: [],
      aliases: [],
      customTimeouts: { createSeconds: 0, updateSeconds: 0, deleteSeconds: 0 },
      additionalSecretOutputs: [],
    },
    stackTags: new Map(),
    isType: () => false,
    asType: () => undefined,
    getConfig: <T extends object>() => (call.config ?? {}) as T,
    notApplicable: (reason?: string): never => {
      throw new Error(`notApplicable: ${reason}`);
    },
  };
}

/**
 * One finding as @pulumi/policy's server records it (server.js makeReportViolationFun): a string
 * takes the level the policy has ("policy": its default or what the policy config sets); an object
 * carries its own level, and its message starts with the policy's description (lib/report.ts).
 */
export interface Reported {
  level: "policy" | "advisory" | "mandatory";
  message: string;
}

function record(into: Reported[]): (message: unknown) => void {
  return (message) => {
    if (typeof message === "string") {
      into.push({ level: "policy", message });
      return;
    }
    const info = message as { message: string; enforcementLevel: "advisory" | "mandatory" };
    into.push({ level: info.enforcementLevel, message: info.message.slice(info.message.indexOf("\n") + 1) });
  };
}

/** Runs `validate` and returns each finding with its level. */
export async function runWithLevels(validate: ResourceValidation, call: Call): Promise<Reported[]> {
  const reported: Reported[] = [];
  await validate(fakeArgs(call), record(reported));
  return reported;
}

/** Runs `validate` and returns the reported messages. */
export async function run(validate: ResourceValidation, call: Call): Promise<string[]> {
  return (await runWithLevels(validate, call)).map((r) => r.message);
}

/** Shorthand for an ApiKey with only an allow list. */
export function key(ipAllowList: unknown, extra: Partial<Call> = {}): Call {
  return { kind: "ApiKey", name: "sender", props: { label: "sender", scopes: [], ipAllowList }, ...extra };
}

/** A resource of a stack policy's args; `managedWith` names the key its `connection` comes from. */
export interface StackCall extends Call {
  managedWith?: string;
}

/** Runs a stack validation over `calls` as the policy server builds them; returns messages and URNs. */
export async function runStack(
  validate: StackValidation,
  calls: StackCall[],
  config: Record<string, unknown> = {},
): Promise<{ message: string; urn?: string }[]> {
  const resources: PolicyResource[] = calls.map((call) => {
    const a = fakeArgs(call);
    return { ...a, dependencies: [], propertyDependencies: {} } as unknown as PolicyResource;
  });
  calls.forEach((call, i) => {
    if (!call.managedWith) return;
    const key = resources.find((r) => r.name === call.managedWith);
    if (!key) throw new Error(`no resource named ${call.managedWith}`);
    resources[i].propertyDependencies.connection = [key];
    resources[i].dependencies.push(key);
  });
  const out: { message: string; urn?: string }[] = [];
  await validate(
    {
      resources,
      stackTags: new Map(),
      getConfig: <T extends object>() => config as T,
      notApplicable: (reason?: string): never => {
        throw new Error(`notApplicable: ${reason}`);
      },
    },
    (message: string, urn?: string) => {
      out.push({ message, urn });
    },
  );
  return out;
}

/** Any policy of the pack on one resource: its messages. */
export async function runPolicy(
  policy: Policy & { validateStack?: StackValidation; validateResource?: ResourceValidation | ResourceValidation[] },
  call: Call,
): Promise<string[]> {
  if (policy.validateStack) return (await runStack(policy.validateStack, [call], call.config)).map((m) => m.message);
  return run(policy.validateResource as ResourceValidation, call);
}
