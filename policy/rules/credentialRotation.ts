// Advisory: credentials that rotate less often than the team allows. Platform teams must rotate what
// senders hold (SOC 2, ISO 27001 and most internal policies ask for it): API keys, sub-account keys
// (so the Tenant's bootstrap and tenant keys, its children) and SMTP credentials (so the Tenant's).
//
// A credential's `rotation` input comes in two shapes, and the rule reads both:
// - structured, `{ every, overlap }`: `every` is a period, days ("30d"), hours ("720h") or a
//   number of days; longer than `maxRotationDays` (default 90) is reported, and so is an `every`
//   that is no period at all;
// - the legacy string trigger (ApiKey's and SubAccountApiKey's `rotation`: any change replaces the
//   key): the credential rotates, on a schedule the pack cannot see. Reported only when the team
//   sets `requireKnownPeriod`.
// A credential with no rotation at all is reported only when the team sets `requireRotation`: off by
// default, so the pack stays quiet on a program that never asked for rotation (the examples get no
// finding under the defaults), and because older stacks' SMTP credentials had no `rotation` input.
import type { ResourceValidation, ResourceValidationPolicy } from "@pulumi/policy";
import { DAY_MS, DURATION_RULE, durationMs } from "../../provider/api/duration";
import { booleanSetting, integerSetting, readConfig } from "../lib/config";
import { describeValue, readProp } from "../lib/inputs";
import { KEY_KINDS, type Kind, kindOf, subject } from "../lib/resources";
import { UNKNOWN, readUnknownAware } from "../lib/unknowns";

const POLICY_NAME = "credential-rotation";

/** Kinds whose secret a sender holds: the keys, and SMTP credentials. */
export const CREDENTIAL_KINDS: readonly Kind[] = [...KEY_KINDS, "SmtpCredential"];

export const CREDENTIAL_ROTATION_DEFAULTS = {
  maxRotationDays: 90,
  requireRotation: false,
  requireKnownPeriod: false,
} as const;

/**
 * A rotation period in days, read with the provider's own grammar (`<n>d` or `<n>h`, a whole number:
 * provider/api/duration.ts), so the pack never passes a period the provider refuses at check.
 * Undefined when the value is no period.
 */
export function periodDays(every: unknown): number | undefined {
  const ms = durationMs(every);
  return ms === undefined ? undefined : ms / DAY_MS;
}

/** How a credential's `rotation` input reads. */
type Rotation =
  | { state: "absent" | "unknown" }
  | { state: "trigger"; value: string }
  | { state: "period"; every: unknown; days: number }
  | { state: "malformed"; field: "rotation" | "rotation.every"; value: unknown };

function readRotation(props: object): Rotation {
  const r = readProp(props, "rotation");
  if (r.state !== "known") return r;
  if (typeof r.value === "string") return { state: "trigger", value: r.value };
  if (typeof r.value !== "object" || r.value === null) return { state: "malformed", field: "rotation", value: r.value };
  const every = readUnknownAware(r.value, "every");
  if (every === UNKNOWN) return { state: "unknown" };
  const days = periodDays(every);
  return days === undefined
    ? { state: "malformed", field: "rotation.every", value: every }
    : { state: "period", every, days };
}

/**
 * Where the author writes the rotation. The Tenant's credentials are its children
 * (`…txmail:index:Tenant$<type>::<tenant>-<role>` in the URN): its `bootstrapKey`, an entry of its
 * `apiKeys` or of its `smtpCredentials`, in a program or a tenants file alike.
 */
function whereToWrite(kind: Kind, urn: string, name: string, line: string): string {
  const parentTypes = (urn.split("::")[2] ?? "").split("$").slice(0, -1);
  if (parentTypes.at(-1) !== "txmail:index:Tenant") return `give it ${line}`;
  if (kind === "SmtpCredential")
    return `give its entry under the tenant's smtpCredentials ${line} (the same in a tenants file)`;
  if (name.endsWith("-bootstrap")) return `give the tenant's bootstrapKey ${line} (the same in a tenants file)`;
  return `give its entry under the tenant's apiKeys ${line} (the same in a tenants file)`;
}

const days = (n: number) => `${Number.isInteger(n) ? n : n.toFixed(1)} day${n === 1 ? "" : "s"}`;

export const validateCredentialRotation: ResourceValidation = (args, reportViolation) => {
  const kind = kindOf(args.type, CREDENTIAL_KINDS);
  if (!kind) return;
  const rotation = readRotation(args.props);
  // Unknown at preview: checked again at `pulumi up`, on the known value.
  if (rotation.state === "unknown") return;
  const config = readConfig(args);
  const max = integerSetting(config, "maxRotationDays", CREDENTIAL_ROTATION_DEFAULTS.maxRotationDays, 1, 3650);
  const who = subject(kind, args);
  const fix = whereToWrite(kind, args.urn, args.name, `rotation: { every: "${max}d" } or a shorter period`);

  switch (rotation.state) {
    case "period":
      if (rotation.days <= max) return;
      reportViolation(
        `${who}: rotation.every ${describeValue(rotation.every)} is ${days(rotation.days)}, longer than the ` +
          `${days(max)} this pack accepts (${POLICY_NAME}.maxRotationDays in the policy config); ${fix}.`,
      );
      return;
    case "malformed": {
      const missing = rotation.value === undefined || rotation.value === null;
      const what = missing
        ? `${rotation.field} is missing`
        : `${rotation.field} ${describeValue(rotation.value)} is not a rotation period`;
      reportViolation(
        `${who}: ${what}; write rotation: { every: "${max}d" } (${DURATION_RULE}), at most ${days(max)}.`,
      );
      return;
    }
    case "trigger":
      if (!booleanSetting(config, "requireKnownPeriod", CREDENTIAL_ROTATION_DEFAULTS.requireKnownPeriod)) return;
      reportViolation(
        `${who} rotates only when its rotation trigger ${describeValue(rotation.value)} changes, on a schedule ` +
          `this pack cannot see, and the policy config sets ${POLICY_NAME}.requireKnownPeriod; ${fix}.`,
      );
      return;
    case "absent":
      if (!booleanSetting(config, "requireRotation", CREDENTIAL_ROTATION_DEFAULTS.requireRotation)) return;
      reportViolation(
        `${who} has no rotation: its secret stays the same until someone replaces it, and the policy config ` +
          `sets ${POLICY_NAME}.requireRotation; ${fix}.`,
      );
  }
};

export const credentialRotation: ResourceValidationPolicy = {
  name: POLICY_NAME,
  description:
    "Warns about credentials (API keys, sub-account keys, SMTP credentials) that rotate less often than maxRotationDays, and, when the policy config requires it, about those that do not rotate or rotate on an unknown schedule.",
  enforcementLevel: "advisory",
  severity: "medium",
  remediationSteps: 'Give the credential rotation: { every: "90d" } (or the period your policy sets).',
  configSchema: {
    properties: {
      maxRotationDays: {
        type: "integer",
        minimum: 1,
        maximum: 3650,
        default: CREDENTIAL_ROTATION_DEFAULTS.maxRotationDays,
        description: "A credential whose rotation.every is longer than this many days is reported.",
      },
      requireRotation: {
        type: "boolean",
        default: CREDENTIAL_ROTATION_DEFAULTS.requireRotation,
        description: "Report credentials with no rotation at all.",
      },
      requireKnownPeriod: {
        type: "boolean",
        default: CREDENTIAL_ROTATION_DEFAULTS.requireKnownPeriod,
        description:
          "Report credentials that rotate only through the legacy rotation string (a replace trigger whose schedule the pack cannot see).",
      },
    },
  },
  validateResource: validateCredentialRotation,
};
