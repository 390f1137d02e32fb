import type * as pulumi from "@pulumi/pulumi";
import type { route } from "../../provider/resources/route";
import { type RouteFields, RouteRegistration } from "./generated/fields";
import type { ArgsOf, OutputsOf } from "./internal/declared";
import { DeclaredResource } from "./internal/declaredResource";

const OUTPUTS = ["secret", "successCount", "errorCount", "errorsSinceLastSuccess", "lastRequestAt"] as const;

export interface RouteArgs extends ArgsOf<typeof route, RouteFields> {}

export interface Route extends OutputsOf<typeof route, RouteFields, (typeof OUTPUTS)[number]> {}

/** An inbound route. `secret` signs its requests (a Pulumi secret, returned once at creation). */
export class Route extends DeclaredResource {
  constructor(name: string, args: RouteArgs, opts?: pulumi.CustomResourceOptions) {
    super("Route", RouteRegistration, OUTPUTS, name, args, opts);
  }
}
