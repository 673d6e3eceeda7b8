import type { ObjectStore } from '@inv/objects';
import type { AppBus } from '@inv/runtime';
import type { Logger } from '@inv/service-kit';

export interface DocumentDeps {
  bus: AppBus;
  objects: ObjectStore;
  logger: Logger;
  /** Attempts of a render command before it is reported failed (the bus's retries + 1). */
  maxAttempts: number;
  presignTtlSeconds: number;
}
