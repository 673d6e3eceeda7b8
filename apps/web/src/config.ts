import { z } from 'zod';
import { envVars } from '@inv/service-kit';

export const webConfig = z.object({
  NODE_ENV: envVars.nodeEnv,
  HOST: z.string().default('127.0.0.1'),
  PORT: envVars.port(3011),
  /** The gateway: the dashboard calls the public API below `${GATEWAY_URL}/api/v1`, like any integrator. */
  GATEWAY_URL: z.string().url().default('http://127.0.0.1:8080'),
  REDIS_URL: envVars.redisUrl,
  REDIS_PREFIX: z.string().default('inv:'),
  LOG_LEVEL: envVars.logLevel,
  HEAP_GROWING_PERCENT: envVars.heapGrowingPercent,
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  /** Failed sign-ins one client address may burst per account before the sign-in page says to wait ... */
  LOGIN_FAILURES_BURST: z.coerce.number().int().positive().default(10),
  /** ... and how many more it regains per minute (five times as many per address, over all accounts). */
  LOGIN_FAILURES_PER_MINUTE: z.coerce.number().int().positive().default(10),
  /** express `trust proxy`: whose X-Forwarded-For names the browser (the gateway's; 'false', a hop count, or addresses/CIDRs). */
  TRUST_PROXY: z.string().default('loopback, uniquelocal'),
});
export type WebConfig = z.output<typeof webConfig>;
