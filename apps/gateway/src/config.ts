import { z } from 'zod';
import { envVars } from '@inv/service-kit';

const url = (port: number) => z.string().url().default(`http://127.0.0.1:${port}`);

export const gatewayConfig = z.object({
  NODE_ENV: envVars.nodeEnv,
  HOST: z.string().default('127.0.0.1'),
  PORT: envVars.port(8080),
  REDIS_URL: envVars.redisUrl,
  REDIS_PREFIX: z.string().default('inv:'),
  LOG_LEVEL: envVars.logLevel,
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  ACCOUNT_URL: url(3001),
  CUSTOMER_URL: url(3002),
  INVOICE_URL: url(3003),
  DOCUMENT_URL: url(3004),
  EXPORT_URL: url(3006),
  QUOTA_URL: url(3007),
  /** Requests per company per second before 429. */
  RATE_LIMIT_PER_SECOND: z.coerce.number().int().positive().default(50),
  /** How long an Idempotency-Key answer is replayed. */
  IDEMPOTENCY_TTL_SECONDS: z.coerce.number().int().positive().default(86_400),
  /** Timeout of a proxied request. */
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
});
export type GatewayConfig = z.output<typeof gatewayConfig>;
