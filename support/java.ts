// Java programs on the generated Java SDK (sdk/java), built and run offline: Maven works against a
// private copy of the local repository `scripts/setup.sh --with java` fills (.tools/maven-repo), and
// the engine runs the program through pulumi-java's language host (.tools/bin/pulumi-language-java)
// with a PATH holding only the CLI, that host and the JDK's `java` (no Node, no Maven).
import * as fs from "node:fs";
import * as path from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { resolvable, toolsRootWithCli } from "./plugin";
import { REPO_ROOT, TOOLS_DIR } from "./root";

const execFileAsync = promisify(execFile);

/** The Maven local repository setup fills (com.pulumi:pulumi's closure and the plugins the builds use). */
export const MAVEN_REPO = path.join(TOOLS_DIR, "maven-repo");

/** The version of the generated Java SDK (sdk/java/pom.xml's own, the schema's). */
export function javaSdkVersion(): string {
  const pom = fs.readFileSync(path.join(REPO_ROOT, "sdk", "java", "pom.xml"), "utf8");
  const version = /^ {2}<version>([^<]+)<\/version>/m.exec(pom)?.[1];
  if (!version) throw new Error("sdk/java/pom.xml has no project version");
  return version;
}

/** `mvn -o` with the given local repository; throws with Maven's output when it fails. */
export async function mavenOffline(repo: string, args: string[], cwd: string): Promise<void> {
  try {
    await execFileAsync("mvn", ["-o", "-B", "-q", "--no-transfer-progress", `-Dmaven.repo.local=${repo}`, ...args], {
      cwd,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    throw new Error(`mvn -o ${args.join(" ")} (in ${cwd}) failed:\n${e.stdout ?? ""}\n${e.stderr ?? ""}`, {
      cause: err,
    });
  }
}

/**
 * Builds a Maven program against the SDK as a user gets it: sdk/java installed (`mvn -o install`,
 * without the sources and javadoc jars a program does not use) into a copy of setup's repository
 * under `workDir`, then the program (`programDir`, copied to `workDir/program`) packaged with
 * `mvn -o package`. Returns the program's copy.
 */
export async function buildJavaProgram(programDir: string, workDir: string): Promise<string> {
  if (!fs.existsSync(path.join(MAVEN_REPO, ".complete")))
    throw new Error(`no Maven repository at ${MAVEN_REPO}: run 'bash scripts/setup.sh --with java' first`);
  const repo = path.join(workDir, "m2");
  fs.cpSync(fs.realpathSync(MAVEN_REPO), repo, { recursive: true });
  const sdk = path.join(workDir, "sdk-java");
  fs.cpSync(path.join(REPO_ROOT, "sdk", "java"), sdk, { recursive: true });
  await mavenOffline(repo, ["install", "-Dmaven.javadoc.skip=true", "-Dmaven.source.skip=true"], sdk);
  const program = path.join(workDir, "program");
  fs.cpSync(programDir, program, { recursive: true, filter: (src) => path.basename(src) !== "target" });
  await mavenOffline(repo, ["package", `-Dtxmail.version=${javaSdkVersion()}`], program);
  return program;
}

/**
 * The file a command on this process's PATH resolves to: a JDK's own `java`, Maven's `mvn` script —
 * not a directory such as /usr/bin that may also hold node.
 */
export function commandPath(name: string): string {
  const dir = resolvable(name, process.env.PATH ?? "")[0];
  if (!dir) throw new Error(`no ${name} on PATH: run 'bash scripts/setup.sh --with java' first`);
  return fs.realpathSync(path.join(dir, name));
}

let javaTools: string | undefined;

/**
 * A tools root whose bin/ is a whole PATH for a Java program's engine runs: the CLI (a file of its
 * own: the engine looks for bundled plugins next to its resolved path), pulumi-java's language host
 * and the JDK's `java` — no Node, no Maven. Made once.
 */
export function javaToolsRoot(): string {
  if (javaTools) return javaTools;
  const host = path.join(TOOLS_DIR, "bin", "pulumi-language-java");
  if (!fs.existsSync(host)) throw new Error(`no ${host}: run 'bash scripts/setup.sh --with java' first`);
  const { root, bin } = toolsRootWithCli("txmail-java-tools-");
  fs.symlinkSync(fs.realpathSync(host), path.join(bin, "pulumi-language-java"));
  fs.symlinkSync(commandPath("java"), path.join(bin, "java"));
  return (javaTools = root);
}
