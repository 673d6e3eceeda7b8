import { z } from 'zod';
import { baseEnv } from '@inv/runtime';
import { envVars } from '@inv/service-kit';

export const customerConfig = baseEnv.extend({
  PORT: envVars.port(3002),
  /** Timeout of RPCs to other services (template lookup, seller profile); statement rendering gets four times this. */
  RPC_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
});
export type CustomerConfig = z.output<typeof customerConfig>;
