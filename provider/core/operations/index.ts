// The generic provider's operations, one file each, all taking a kind's context (context.ts): what
// both faces (sdk's dynamic provider via provider/runtime.ts, and the native provider) call.
export { type KindContext, collectionOf, connect, kindContext } from "./context";
export { type CheckFailure, type CommonRefusals, check, toFailures } from "./check";
export { type DiffResult, diff } from "./diff";
export { adopt, create } from "./create";
export { read } from "./read";
export { update } from "./update";
export { deleteObject } from "./delete";
export { type OwnOperations, watching } from "./watch";
