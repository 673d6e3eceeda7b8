import { z } from 'zod';
import { objectStorageEnv } from '@inv/objects';
import { baseEnvWithoutDatabase } from '@inv/runtime';
import { envVars } from '@inv/service-kit';
import { availableParallelism } from 'node:os';

export const documentConfig = baseEnvWithoutDatabase.extend({
  PORT: envVars.port(3004),
  ...objectStorageEnv,
  /** Worker threads that render PDFs (0: render on the event loop); by default the cores but one, at least one. */
  RENDER_WORKERS: z.coerce
    .number()
    .int()
    .min(0)
    .max(32)
    .default(Math.max(1, availableParallelism() - 1)),
  /**
   * `document.render-started.v1` is sent only for a render not reported within this many ms (0: for every
   * render, at once); every report carries when the render started.
   */
  RENDER_STARTED_AFTER_MS: z.coerce.number().int().min(0).max(60_000).default(250),
});
export type DocumentConfig = z.output<typeof documentConfig>;
