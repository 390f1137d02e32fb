// The provider object of DomainVerification resources; see lazyProvider.ts for why it is this file's whole exports.
import { lazyProvider } from "./lazyProvider";
export = lazyProvider("DomainVerification");
