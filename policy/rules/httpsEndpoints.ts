// Advisory: webhooks and routes must deliver over https. Event payloads carry recipients and
// message content (routes post whole inbound messages), and over http anyone on the path can read
// them and replay the signed requests.
import type { ResourceValidation, ResourceValidationPolicy } from "@pulumi/policy";
import { readConfig, stringListSetting } from "../lib/config";
import { describeValue, readProp } from "../lib/inputs";
import { ENDPOINT_KINDS, kindOf, subject } from "../lib/resources";

const POLICY_NAME = "endpoint-https";

export const HTTPS_DEFAULTS = { allowedHttpHosts: [] as readonly string[] };

export const validateHttpsEndpoint: ResourceValidation = (args, reportViolation) => {
  const kind = kindOf(args.type, ENDPOINT_KINDS);
  if (!kind) return;
  const allowedHosts = stringListSetting(readConfig(args), "allowedHttpHosts", HTTPS_DEFAULTS.allowedHttpHosts);
  const read = readProp(args.props, "url");
  // Unknown at preview: checked again at `pulumi up`. Absent: the provider requires it.
  if (read.state !== "known") return;
  const who = subject(kind, args);
  if (typeof read.value !== "string") {
    reportViolation(`${who}: url ${describeValue(read.value)} is not a string; use an https:// URL.`);
    return;
  }
  let url: URL;
  try {
    url = new URL(read.value);
  } catch {
    reportViolation(
      `${who}: url '${read.value}' is not an absolute URL; use an https:// URL such as https://hooks.example.com/txmail.`,
    );
    return;
  }
  if (url.protocol === "https:") return;
  if (url.protocol === "http:" && allowedHosts.includes(url.hostname)) return;
  const https = url.protocol === "http:" ? ` ('${read.value.replace(/^http:/i, "https:")}')` : "";
  reportViolation(
    `${who}: url '${read.value}' uses ${url.protocol.slice(0, -1)}, so deliveries travel unencrypted; ` +
      `use an https:// URL${https}` +
      (url.protocol === "http:"
        ? ` or add '${url.hostname}' to ${POLICY_NAME}.allowedHttpHosts in the policy config.`
        : "."),
  );
};

export const httpsEndpoints: ResourceValidationPolicy = {
  name: POLICY_NAME,
  description: "Warns about webhooks and inbound routes whose url is not https.",
  enforcementLevel: "advisory",
  severity: "high",
  configSchema: {
    properties: {
      allowedHttpHosts: {
        type: "array",
        items: { type: "string" },
        default: [...HTTPS_DEFAULTS.allowedHttpHosts],
        description: "Host names that may use plain http (e.g. localhost for the local emulator).",
      },
    },
  },
  validateResource: validateHttpsEndpoint,
};
