// Lowering one finding of a mandatory policy to advisory. @pulumi/policy's reportViolation also
// takes an object whose `enforcementLevel` and `severity` replace the policy's for that finding
// (server.js makeReportViolationFun; not in its typings, so test/unit/policy/report.test.ts pins
// it against the installed package). The pack only ever lowers: a finding reported as a plain
// string keeps the level the policy config gives the policy, so a team that sets the policy to
// advisory while it rolls it out sees every finding as advisory.
import type { ReportViolation } from "@pulumi/policy";

/** The object form server.js accepts (its field names). */
export interface ViolationInfo {
  message: string;
  enforcementLevel: "advisory";
  severity: "low" | "medium" | "high" | "critical";
}

/**
 * Reports `text` as an advisory finding of the policy described by `description`. The string form
 * prints the description above the message; the object form prints only `message`, so it carries
 * the description itself and the CLI shows both forms alike.
 */
export function reportAdvisory(
  reportViolation: ReportViolation,
  description: string,
  text: string,
  severity: ViolationInfo["severity"],
): void {
  const info: ViolationInfo = { message: `${description}\n${text}`, enforcementLevel: "advisory", severity };
  (reportViolation as unknown as (info: ViolationInfo) => void)(info);
}
