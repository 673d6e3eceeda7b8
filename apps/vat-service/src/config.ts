import { z } from 'zod';
import { checkVatIdSyntax } from '@inv/contracts';
import { baseEnvWithoutDatabase } from '@inv/runtime';
import { envVars } from '@inv/service-kit';

const msList = z
  .string()
  .regex(/^\d+(,\d+)*$/, 'comma-separated milliseconds')
  .transform((s) => s.split(',').map(Number));

export const vatConfig = baseEnvWithoutDatabase.extend({
  PORT: envVars.port(3005),
  /** checkVatService endpoint of VIES. Unset: only where the launcher or a test gives a stand-in (the simulator, never real VIES answers). */
  VIES_URL: z.string().url().optional(),
  /** Per VIES call; a later answer counts as a transient CLIENT_TIMEOUT fault. */
  VIES_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** Calls per check, the first included (transient faults are retried). */
  VIES_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(4),
  /** Backoff before retry 1, 2, ... (the last value repeats). */
  VIES_BACKOFF_MS: msList.default([200, 1000, 3000]),
  /** Our own VAT ID: VIES then issues a consultation number as audit evidence. */
  REQUESTER_VAT_ID: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v) return undefined;
      const syntax = checkVatIdSyntax(v);
      if (!syntax.ok) {
        ctx.addIssue({ code: 'custom', message: syntax.reason });
        return z.NEVER;
      }
      return { countryCode: syntax.countryCode, vatNumber: syntax.number };
    }),
  /** How long valid/invalid answers and `unavailable` are reused from the Redis cache. */
  VAT_CACHE_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(24 * 60 * 60),
  VAT_UNAVAILABLE_TTL_SECONDS: z.coerce.number().int().positive().default(60),
});
export type VatConfig = z.output<typeof vatConfig>;
