// One route, declared as it exists at the service: what a user writes after `pulumi import`.
import * as pulumi from "@pulumi/pulumi";
import * as txmail from "pulumi-txmail";

const cfg = new pulumi.Config();
const route = new txmail.Route("support", {
  name: cfg.require("routeName"),
  url: cfg.require("routeUrl"),
  recipient: cfg.require("recipient"),
  enabled: false,
});

export const routeId = route.id;
