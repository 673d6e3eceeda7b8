import type { ObjectStore } from '@inv/objects';
import type { AppBus } from '@inv/runtime';
import type { Logger } from '@inv/service-kit';
import type { Renderer } from '../render/render-pool';

export interface DocumentDeps {
  bus: AppBus;
  objects: ObjectStore;
  logger: Logger;
  /** PDF and XML rendering, off the event loop (render/render-pool.ts). */
  renderer: Renderer;
  /** Attempts of a render command before it is reported failed (the bus's retries + 1). */
  maxAttempts: number;
  /** A render not reported within this many ms announces that it started (0: every render, at once). */
  startedAfterMs: number;
  presignTtlSeconds: number;
}
