// The service contract: one zod schema per record and request body (types via z.infer), the endpoint
// table and the paths built from it.
export * from "./common";
export * from "./createForm";
// Every contract file (a kind's or a group of endpoints'), listed by `npm run gen:sdk`.
export * from "./generated/contracts";
export * from "./endpoints";
export * from "./paths";
export * from "./kinds";
export * from "./unset";
export * from "./publicShapes";
