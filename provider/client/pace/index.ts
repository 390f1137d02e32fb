// The pace layer: the account's client-side rate limit (tokenBucket.ts), its curve over time after a
// 429 (paceCurve.ts), and where its state lives — this process's memory (paceStore.ts) or a file
// every process on the machine shares (machinePace.ts).
export * from "./tokenBucket";
export * from "./paceCurve";
export * from "./paceStore";
export * from "./machinePace";
