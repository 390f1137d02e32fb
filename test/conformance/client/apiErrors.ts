// Both client suites provoke API errors and afterwards check every one of them for leaked secrets:
// catching an error also records it for that check.
import { TxmailApiError } from "../../../provider/client";

/** Awaits a promise that must fail with a TxmailApiError; records that error in `errors` and returns it. */
export function apiErrorCatcher(errors: TxmailApiError[]): (p: Promise<unknown>) => Promise<TxmailApiError> {
  return async (p) => {
    try {
      await p;
    } catch (e) {
      if (e instanceof TxmailApiError) {
        errors.push(e);
        return e;
      }
      throw e;
    }
    throw new Error("expected a TxmailApiError");
  };
}
