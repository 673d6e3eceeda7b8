import { z } from 'zod';
import { baseEnv } from '@inv/runtime';
import { envVars } from '@inv/service-kit';

export const quotaConfig = baseEnv.extend({
  PORT: envVars.port(3007),
  /**
   * Company ids whose finalizations are counted but never limited: the benchmark harness's company (and
   * internal accounts). Only configuration selects it, never the API.
   */
  QUOTA_UNLIMITED_COMPANIES: z
    .string()
    .default('')
    .transform(
      (v) =>
        new Set(
          v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        ),
    ),
});
export type QuotaConfig = z.output<typeof quotaConfig>;
