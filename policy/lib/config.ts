// Policy config as rules see it. The engine validates `--policy-pack-config` against each
// configSchema, but getConfig() returns {} when a policy has no config, so every reader falls back
// to the same default the schema advertises, and ignores a value of the wrong type.
import type { ResourceValidationArgs } from "@pulumi/policy";

export type Config = Record<string, unknown>;

export function readConfig(args: Pick<ResourceValidationArgs, "getConfig">): Config {
  const c: unknown = args.getConfig<Config>();
  return typeof c === "object" && c !== null ? (c as Config) : {};
}

export function integerSetting(config: Config, key: string, fallback: number, min: number, max: number): number {
  const v = config[key];
  return typeof v === "number" && Number.isInteger(v) && v >= min && v <= max ? v : fallback;
}

export function stringListSetting(config: Config, key: string, fallback: readonly string[]): readonly string[] {
  const v = config[key];
  return Array.isArray(v) && v.every((s) => typeof s === "string") ? (v as string[]) : fallback;
}

export function booleanSetting(config: Config, key: string, fallback: boolean): boolean {
  const v = config[key];
  return typeof v === "boolean" ? v : fallback;
}
