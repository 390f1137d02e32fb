// What the engine calls on a resource's provider: the generic provider (factory.ts) is one, and a
// capability that wraps it (rotating/) takes and gives one. Its own file, so a capability imports
// the shape without importing the factory that wraps with it.
import type { Props } from "./declaration";
import type { CheckFailure, DiffResult } from "./operations";

export interface Provider {
  check(olds: Props, news: Props): Promise<{ inputs?: Props; failures?: CheckFailure[] }>;
  diff(id: string, olds: Props, news: Props): Promise<DiffResult>;
  create(inputs: Props): Promise<{ id: string; outs: Props }>;
  read(id: string, props?: Props): Promise<{ id?: string; props?: Props }>;
  update(id: string, olds: Props, news: Props): Promise<{ outs: Props }>;
  delete(id: string, props: Props): Promise<void>;
}
