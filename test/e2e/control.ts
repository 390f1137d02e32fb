// The emulator's control surface (counters, faults, clock, state dump) for e2e tests and benches.
export { controlClient, type EmulatorControl } from "../../emulator/control";
