// The service contract: one zod schema per record and request body (types via z.infer), and paths.
export * from "./common";
export * from "./apiKey";
export * from "./subAccount";
export * from "./domain";
export * from "./route";
export * from "./webhook";
export * from "./smtpCredential";
export * from "./member";
export * from "./suppression";
export * from "./message";
export * from "./paths";
export * from "./kinds";
export * from "./unset";
