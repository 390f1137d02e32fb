// The provider object of Suppression resources; see lazyProvider.ts for why it is this file's whole exports.
import { lazyProvider } from "./lazyProvider";
export = lazyProvider("Suppression");
