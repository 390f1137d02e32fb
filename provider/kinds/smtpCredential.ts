// The provider object of SmtpCredential resources; see lazyProvider.ts for why it is this file's whole exports.
import { lazyProvider } from "./lazyProvider";
export = lazyProvider("SmtpCredential");
