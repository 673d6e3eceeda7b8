import type { z } from 'zod';
import { exitOnSignals, loadConfigOrExit, type Logger } from '@inv/service-kit';

interface Startable {
  runtime: { logger: Logger };
  start(): Promise<unknown>;
  stop(): Promise<void>;
}

/** Entry point of a service process: config from the environment, start, graceful stop on SIGTERM/SIGINT. */
export function runMain<S extends z.ZodType>(name: string, schema: S, create: (config: z.output<S>) => Promise<Startable>): void {
  const config = loadConfigOrExit(schema);
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
