// The provider object of SubAccountApiKey resources; see lazyProvider.ts for why it is this file's whole exports.
import { lazyProvider } from "./lazyProvider";
export = lazyProvider("SubAccountApiKey");
