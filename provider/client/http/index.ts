// The transport layer (http/): one HTTP exchange (transport.ts) over the process's keep-alive pools
// (dispatcher.ts). No retries, no pacing, no validation: the layers above decide from what it returns.
// Not named transport/: an existing dist/ keeps the old transport.js, which Node would load for
// `./transport` before a folder of that name (tsc's incremental build removes no stale output).
export * from "./transport";
export * from "./dispatcher";
