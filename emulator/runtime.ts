// What the request pipeline and the control surface share: the services plus the emulator's own
// instruments (faults, counters, request log, idempotency).
import type { Services } from "./context";
import type { Counters } from "./counters";
import type { Faults } from "./faults";
import type { Idempotency } from "./idempotency";
import type { RequestLog } from "./requestLog";
import type { IdemStore } from "./store/idempotency";

/** Everything the control surface can reach. */
export interface Runtime {
  svc: Services;
  faults: Faults;
  counters: Counters;
  /** Every service request in arrival order, with the status sent (bounded). */
  requests: RequestLog;
  idem: Idempotency;
  idemStore: IdemStore;
}
