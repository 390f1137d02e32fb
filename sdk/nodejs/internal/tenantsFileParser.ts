// Parsing the declarative tenants file: YAML validated with zod, errors naming the file, line,
// column and field, all of them at once (a user fixing a file wants every problem in one run).
// Loaded by ../tenantsFile.ts on first use, so programs that never read a file do not load yaml or zod.
import { LineCounter, parseDocument, isMap, isSeq, type Node } from "yaml";
import { z } from "zod";
import { Hostname } from "../../../provider/api/common";
import { RotationSchedule } from "../../../provider/core/rotating/schedule";
import { TenantsFileError } from "./tenantsFileError";

const StrList = z.array(z.string());
const Key = z.strictObject({
  label: z.string().optional(),
  scopes: StrList.optional(),
  ipAllowList: StrList.optional(),
  // A schedule, or the deprecated string trigger (docs/guide/rotating-credentials.md).
  rotation: z.union([z.string(), RotationSchedule]).optional(),
});
const Route = z.strictObject({
  url: z.string(),
  name: z.string().optional(),
  recipient: z.string().optional(),
  attachments: z.boolean().optional(),
  headers: z.boolean().optional(),
  groupByMessageId: z.boolean().optional(),
  stripReplies: z.boolean().optional(),
  enabled: z.boolean().optional(),
});
const Webhook = z.strictObject({
  url: z.string(),
  name: z.string().optional(),
  enabled: z.boolean().optional(),
  scope: z.enum(["global", "scoped"]).optional(),
  domains: StrList.optional(),
  events: z
    .array(
      z.enum([
        "reception",
        "delivered",
        "transientError",
        "failed",
        "bounced",
        "suppressed",
        "opened",
        "clicked",
        "suppressionCreated",
        "dnsError",
      ]),
    )
    .optional(),
});
const Smtp = z.strictObject({
  name: z.string().optional(),
  sandbox: z.boolean().optional(),
  scope: z.enum(["global", "scoped"]).optional(),
  domains: StrList.optional(),
  rotation: RotationSchedule.optional(),
});
const MemberRole = z.enum(["Administrator", "Developer", "Analyst", "Billing Manager"]);
const Member = z.strictObject({
  email: z.email("must be an email address"),
  name: z.string().optional(),
  role: MemberRole,
});
const Suppression = z.strictObject({
  email: z.email("must be an email address"),
  domain: z.string().optional(),
  reason: z.string().max(255).optional(),
  expiresAt: z.iso.datetime({ offset: true, message: "must be an RFC 3339 time such as 2030-01-31T00:00:00Z" }),
});
const TenantName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,40}$/, "must be lower-case letters, digits and '-' (it names Pulumi resources)");
const TenantEntry = z.strictObject({
  name: TenantName,
  /** Names this tenant had before: its resources keep their objects under the new name (Pulumi aliases). */
  formerNames: z.array(TenantName).optional(),
  displayName: z.string().optional(),
  // Checked here, with the whole file, before any tenant is built: the provider's own check comes
  // only once other tenants of the same run were half-built.
  website: Hostname,
  monthlyCredit: z.number().int().min(0).optional(),
  suspended: z.boolean().optional(),
  suspensionReason: z.string().optional(),
  domain: Hostname.optional(),
  waitForVerificationSeconds: z.number().int().min(0).optional(),
  /** Verify the domain in each `up` (its records published elsewhere): the DomainVerification's own inputs. */
  domainVerification: z
    .strictObject({
      recordsToVerify: z.enum(["required", "all"]).optional(),
      timeoutSeconds: z.number().int().min(1).max(3600).optional(),
    })
    .optional(),
  bootstrapKey: Key.optional(),
  apiKeys: z.record(z.string(), Key).optional(),
  routes: z.record(z.string(), Route).optional(),
  webhooks: z.record(z.string(), Webhook).optional(),
  smtpCredentials: z.record(z.string(), Smtp).optional(),
  members: z.record(z.string(), Member).optional(),
  suppressions: z.record(z.string(), Suppression).optional(),
});
export const TenantsFile = z.strictObject({ tenants: z.array(TenantEntry) }).superRefine((f, ctx) => {
  const seen = new Set<string>();
  const domainOf = new Map<string, string>();
  f.tenants.forEach((t, i) => {
    if (seen.has(t.name))
      ctx.addIssue({ code: "custom", path: ["tenants", i, "name"], message: `duplicate tenant name '${t.name}'` });
    seen.add(t.name);
    // One sending domain, one tenant: the service would refuse the second, after the first was built.
    const domain = t.domain?.toLowerCase();
    const holder = domain === undefined ? undefined : domainOf.get(domain);
    if (holder !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["tenants", i, "domain"],
        message: `'${t.domain}' is already tenant '${holder}''s domain`,
      });
    else if (domain !== undefined) domainOf.set(domain, t.name);
    if (t.domainVerification !== undefined && t.domain === undefined)
      ctx.addIssue({ code: "custom", path: ["tenants", i, "domainVerification"], message: "needs a domain to verify" });
  });
  // A former name stands for one tenant's objects: two claimants, or a tenant still using the name,
  // would make two resources of one (the engine would refuse the aliases, after the preview began).
  const formerOwner = new Map<string, string>();
  f.tenants.forEach((t, i) => {
    (t.formerNames ?? []).forEach((former, j) => {
      const path = ["tenants", i, "formerNames", j];
      const claimedBy = formerOwner.get(former);
      if (seen.has(former)) {
        const rule = former === t.name ? "is this tenant's own name" : `is the name of tenant '${former}'`;
        ctx.addIssue({ code: "custom", path, message: `'${former}' ${rule}; a former name must be free` });
      } else if (claimedBy !== undefined) {
        ctx.addIssue({ code: "custom", path, message: `'${former}' is already a former name of '${claimedBy}'` });
      } else formerOwner.set(former, t.name);
    });
  });
});
export type TenantsFile = z.infer<typeof TenantsFile>;
export type TenantEntry = z.infer<typeof TenantEntry>;

/** Alias uses (times the aliases each expands) a tenants file may make: 10 000 tenants sharing 10 anchors. */
const MAX_ALIAS_USES = 100_000;

function toJS(doc: ReturnType<typeof parseDocument>, file: string): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_USES });
  } catch (err) {
    if (!(err instanceof ReferenceError)) throw err;
    throw new TenantsFileError(
      `${file}: ${err.message} (YAML aliases expand to more than ${MAX_ALIAS_USES} nodes: write the values out, or anchor fewer nested ones)`,
    );
  }
}

export function parseTenants(text: string, file: string): TenantsFile {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: true });
  if (doc.errors.length > 0) {
    throw new TenantsFileError(doc.errors.map((e) => `${file}: ${e.message}`).join("\n"));
  }
  // One anchored schedule or list shared by every tenant (`rotation: *every30d`) is the point of YAML
  // anchors in this file; the library's default of 100 alias uses stops a fleet of more tenants with
  // "Excessive alias count". Raised, still bounded: a nested expansion past it fails as before.
  const parsed = TenantsFile.safeParse(toJS(doc, file));
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => {
    const node = nodeAt(doc.contents, issue.path);
    const pos = node?.range ? lineCounter.linePos(node.range[0]) : undefined;
    const where = pos ? `${file}:${pos.line}:${pos.col}` : file;
    return `${where}: ${issue.path.map(String).join(".") || "(root)"}: ${issue.message}`;
  });
  throw new TenantsFileError(`invalid tenants file:\n${lines.join("\n")}`);
}

/** The deepest YAML node that exists along `path` (for a missing key: its parent). */
function nodeAt(root: unknown, path: readonly PropertyKey[]): Node | undefined {
  let node = root as Node | undefined;
  for (const seg of path) {
    let next: unknown;
    if (isMap(node)) next = node.get(String(seg), true);
    else if (isSeq(node)) next = node.get(Number(seg), true);
    if (next === undefined || next === null) return node;
    node = next as Node;
  }
  return node;
}
