// Modules of @pulumi/pulumi's own dependency tree: its generated gRPC stubs require these very
// copies (a Struct or a channel from another copy of google-protobuf or grpc-js fails its checks),
// so they are resolved from @pulumi/pulumi's directory, not from ours. A single-file build of the
// plugin (scripts/plugin/bundle.js) has no directories: there the bundler resolves the same ids the
// same way at build time, and the static loaders below are what it sees.
import * as path from "node:path";
import { bundled } from "./bundled";

const loaders = {
  "@grpc/grpc-js": () => require("@grpc/grpc-js"),
  "google-protobuf/google/protobuf/struct_pb": () => require("google-protobuf/google/protobuf/struct_pb"),
  "google-protobuf/google/protobuf/empty_pb": () => require("google-protobuf/google/protobuf/empty_pb"),
  "google-protobuf/google/protobuf/any_pb": () => require("google-protobuf/google/protobuf/any_pb"),
  "@pulumi/pulumi/proto/engine_grpc_pb": () => require("@pulumi/pulumi/proto/engine_grpc_pb"),
  "@pulumi/pulumi/proto/engine_pb": () => require("@pulumi/pulumi/proto/engine_pb"),
} as const;

export type PulumiModule = keyof typeof loaders;

/** The module `id` as @pulumi/pulumi itself loads it. */
export function fromPulumi<T>(id: PulumiModule): T {
  if (bundled) return loaders[id]() as T;
  const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
  return require(require.resolve(id, { paths: [pulumiDir] })) as T;
}
