// The service contract: one zod schema per record and request body (types via z.infer), the endpoint
// table and the paths built from it.
export * from "./common";
export * from "./createForm";
export * from "./apiKey";
export * from "./subAccount";
export * from "./domain";
export * from "./route";
export * from "./webhook";
export * from "./smtpCredential";
export * from "./member";
export * from "./suppression";
export * from "./message";
export * from "./endpoints";
export * from "./paths";
export * from "./kinds";
export * from "./unset";
export * from "./publicShapes";
