// A kind's one example (docs/examples/<Kind>/main.pp), read as a program: its resources and their
// properties. Read from the example's Pulumi YAML form, which Pulumi's own converter writes from
// main.pp (`npm run gen:examples`; test/e2e/docs/examplesGenerated.test.ts keeps it in step), so
// nothing here parses PCL a second way. Used where a kind's resource is built from its example
// with no line of its own: the schema test (test/conformance/native/schemaMatchesState.test.ts) and
// the acceptance run's derived kinds (acceptance/derived.ts).
import * as fs from "node:fs";
import * as path from "node:path";
import * as YAML from "yaml";
import { REPO_ROOT } from "./root";

export interface ExampleResource {
  type: string;
  properties?: Record<string, unknown>;
}

export interface Example {
  /** The file read, for messages. */
  file: string;
  /** Every resource of the program, by name. */
  resources: Record<string, ExampleResource>;
  /** The name of the kind's own resource (an example may create what it refers to first). */
  own: string;
}

/** `${name.output}`: a property that refers to another resource's output. */
export const REFERENCE = /^\$\{(\w+)\.(\w+)\}$/;

/** Whether a resource's type token is the kind's (Pulumi YAML writes the short form, `txmail:<Kind>`). */
export const isOfKind = (type: string, kind: string) => type === `txmail:${kind}` || type === `txmail:index:${kind}`;

/** The example of `kind` in the checkout at `root`; throws naming the file when it has no resource of the kind. */
export function exampleOf(kind: string, root: string = REPO_ROOT): Example {
  const file = path.join(root, "docs", "examples", kind, "Pulumi.yaml");
  const { resources } = YAML.parse(fs.readFileSync(file, "utf8")) as { resources: Record<string, ExampleResource> };
  const own = Object.entries(resources).find(([, r]) => isOfKind(r.type, kind))?.[0];
  if (own === undefined) throw new Error(`${file}: no resource of the kind ${kind}`);
  return { file, resources, own };
}
