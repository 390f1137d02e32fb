// A construct's children fail through promises nobody awaits (Pulumi rethrows their non-gRPC
// errors on purpose, as unhandled rejections); the construct in flight fails with that error
// instead of the plugin process exiting. Run in a child Node process (the built dist/, as the
// plugin runs it): jest itself takes over unhandled rejections in its own process.
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { REPO_ROOT } from "../../../support/root";

const uncaught = path.join(REPO_ROOT, "dist", "native", "uncaught.js");

/** Runs `body` (with `failOnUncaughtErrors` in scope) in a fresh Node process; its stdout and exit code. */
function runNode(body: string): { stdout: string; code: number } {
  const script = `const { failOnUncaughtErrors } = require(${JSON.stringify(uncaught)});\n${body}`;
  try {
    return { stdout: execFileSync(process.execPath, ["-e", script], { encoding: "utf8", stdio: "pipe" }), code: 0 };
  } catch (err) {
    const e = err as { stdout: string; status: number };
    return { stdout: e.stdout, code: e.status };
  }
}

describe("failOnUncaughtErrors", () => {
  it("rejects the construct in flight with an error nobody awaited, and the process lives on", () => {
    const r = runNode(`
      failOnUncaughtErrors(async () => {
        void Promise.reject(new Error("a child's input could not be serialized"));
        await new Promise((resolve) => setTimeout(resolve, 200));
        return "built";
      }).then(
        (v) => console.log("resolved " + v),
        (e) => setTimeout(() => console.log("rejected: " + e.message + "; still running"), 50),
      );`);
    expect(r).toEqual({ stdout: "rejected: a child's input could not be serialized; still running\n", code: 0 });
  });

  it("answers with the construct's own result otherwise", () => {
    const r = runNode(`failOnUncaughtErrors(async () => "built").then((v) => console.log("resolved " + v));`);
    expect(r).toEqual({ stdout: "resolved built\n", code: 0 });
  });

  it("outside a construct, an uncaught error still ends the process with a failure", () => {
    const r = runNode(`
      failOnUncaughtErrors(async () => "built").then(() => {
        void Promise.reject(new Error("late"));
      });`);
    expect(r.code).toBe(1);
  });
});
