import { z } from 'zod';
import { baseEnv } from '@inv/runtime';
import { envVars } from '@inv/service-kit';

export const accountConfig = baseEnv.extend({
  PORT: envVars.port(3001),
  BOOTSTRAP_API_KEY: z
    .string()
    .regex(/^ak_live_[0-9a-f]{32}$/, 'ak_live_ followed by 32 lowercase hexadecimal characters')
    .optional(),
});
export type AccountConfig = z.output<typeof accountConfig>;
