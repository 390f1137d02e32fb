// The provider object of SubAccount resources; see lazyProvider.ts for why it is this file's whole exports.
import { lazyProvider } from "./lazyProvider";
export = lazyProvider("SubAccount");
