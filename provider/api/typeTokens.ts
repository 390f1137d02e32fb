// How each kind is named to Pulumi, its policies and `pulumi stack`: the dynamic-provider type token
// `pulumi-nodejs:dynamic/txmail:<Kind>` (Pulumi forms it from the module "txmail" and the kind). The
// SDK registers resources under it and the policy pack matches on it, so both take it from here.
// No imports: the SDK loads this at `import "pulumi-txmail"` time.
export const typeToken = (kind: string) => `pulumi-nodejs:dynamic/txmail:${kind}`;
// The native provider's token for the same kind (`txmail:index:<Kind>`): what `pulumi import` and
// `pulumi import --file` name.
export const nativeTypeToken = (kind: string) => `txmail:index:${kind}`;
