import type * as pulumi from "@pulumi/pulumi";
declare const provider: pulumi.dynamic.ResourceProvider;
export = provider;
