import { setFlagsFromString } from 'node:v8';
import type { z } from 'zod';
import { exitOnSignals, loadConfigOrExit, type Logger } from '@inv/service-kit';
import { reportStartup } from './startup-progress';

interface Startable {
  runtime: { logger: Logger };
  start(): Promise<unknown>;
  stop(): Promise<void>;
}

/** Entry point of a service process: config from the environment, start, graceful stop on SIGTERM/SIGINT. */
export function runMain<S extends z.ZodType<{ HEAP_GROWING_PERCENT: number }>>(
  name: string,
  schema: S,
  create: (config: z.output<S>) => Promise<Startable>,
): void {
  const config = loadConfigOrExit(schema);
  applyHeapGrowing(config.HEAP_GROWING_PERCENT);
  reportStartup('setting up');
  create(config)
    .then(async (service) => {
      await service.start();
      exitOnSignals(service.runtime.logger, () => service.stop());
    })
    .catch((err: unknown) => {
      console.error(`${name} failed to start:`, err);
      process.exit(1);
    });
}

/**
 * Sets V8's heap growing factor for this process and the worker threads it starts (V8 flags are per process).
 * V8 reads it each time it sets the next full GC's limit, so setting it at start, before the service has
 * allocated much, takes effect for the whole run. 0 leaves V8's default.
 */
export function applyHeapGrowing(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
