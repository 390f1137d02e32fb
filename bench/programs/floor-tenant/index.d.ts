import type * as pulumi from "@pulumi/pulumi";
/** A floor's no-op resource: a name, its properties, its options. */
export type NoopResource = new (
  name: string,
  props: Record<string, pulumi.Input<unknown>>,
  opts?: pulumi.CustomResourceOptions,
) => pulumi.CustomResource;
export declare function declareTenants(count: number, Noop: NoopResource): void;
