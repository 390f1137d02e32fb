// Which face a txmail resource is registered through:
// - "dynamic" (default): a dynamic-provider resource `pulumi-nodejs:dynamic/txmail:<Kind>`, served
//   by the program's own package (npm only, nothing to install);
// - "native": a custom resource `txmail:index:<Kind>` served by the `txmail` provider plugin
//   (pulumi-resource-txmail), which takes explicit providers and `pulumi import`.
// Chosen by stack config `txmail:face`, else the TXMAIL_FACE environment variable. A resource given
// an explicit txmail.Provider is native whatever they say: only the plugin can use that provider.
import * as pulumi from "@pulumi/pulumi";

export type Face = "dynamic" | "native";

/** Every face, in the order runs that walk both take them. */
export const FACES: readonly Face[] = ["dynamic", "native"];

export function configuredFace(): Face {
  const fromConfig = new pulumi.Config("txmail").get("face");
  const [value, where] =
    fromConfig !== undefined && fromConfig !== ""
      ? [fromConfig, "txmail:face"]
      : [process.env.TXMAIL_FACE ?? "", "TXMAIL_FACE"];
  if (value === "" || value === "dynamic") return "dynamic";
  if (value === "native") return "native";
  // A RunError: the engine prints its message once, on the stack, without a JavaScript stack trace.
  throw new pulumi.RunError(`${where}: must be "dynamic" or "native", got '${value}'`);
}
