import { z } from 'zod';
import { envVars, identityKeysEnv } from '@inv/service-kit';

const url = (port: number) => z.string().url().default(`http://127.0.0.1:${port}`);

export const gatewayConfig = z.object({
  NODE_ENV: envVars.nodeEnv,
  HOST: z.string().default('127.0.0.1'),
  PORT: envVars.port(8080),
  REDIS_URL: envVars.redisUrl,
  REDIS_PREFIX: z.string().default('inv:'),
  LOG_LEVEL: envVars.logLevel,
  HEAP_GROWING_PERCENT: envVars.heapGrowingPercent,
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  ACCOUNT_URL: url(3001),
  CUSTOMER_URL: url(3002),
  INVOICE_URL: url(3003),
  DOCUMENT_URL: url(3004),
  EXPORT_URL: url(3006),
  QUOTA_URL: url(3007),
  INBOUND_URL: url(3009),
  WEBHOOK_URL: url(3008),
  RECURRING_URL: url(3010),
  /** The dashboard (apps/web), served under /app/. */
  WEB_URL: url(3011),
  /** Requests per company per second before 429. */
  RATE_LIMIT_PER_SECOND: z.coerce.number().int().positive().default(50),
  /** How long an Idempotency-Key answer is replayed. */
  IDEMPOTENCY_TTL_SECONDS: z.coerce.number().int().positive().default(86_400),
  /** Requests kept in each company's request log (GET /request-log/, newest first); 0 records none. */
  REQUEST_LOG_MAX_ENTRIES: z.coerce.number().int().min(0).max(10_000).default(1_000),
  /** A request log is dropped this long after the company's last request. */
  REQUEST_LOG_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(30 * 86_400),
  /** Largest request body the gateway forwards (declared Content-Length); the services' JSON limit is 1 MiB. */
  MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  /** Largest multipart upload forwarded (an attachment is at most 5 MiB; the rest is form overhead). */
  MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * 1024 * 1024 + 64 * 1024),
  /** Timeout of a proxied request (504 beyond) ... */
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  /** ... and of the routes that render a PDF inline or stream a download (routes-table.ts). */
  UPSTREAM_TIMEOUT_SLOW_MS: z.coerce.number().int().positive().default(120_000),
  /** HMAC keys of the identity tokens sent to the services, comma-separated: the first signs (SECURITY.md). */
  IDENTITY_SIGNING_KEYS: identityKeysEnv,
  /** How long a verified API key is trusted without asking account-service (revocations evict at once). */
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(300_000).default(30_000),
  /** How long an unknown API key is answered 401 from memory. */
  AUTH_NEGATIVE_CACHE_TTL_MS: z.coerce.number().int().min(0).max(300_000).default(30_000),
  /** Failed authentications one client address may burst before 429 ... */
  AUTH_FAILURES_BURST: z.coerce.number().int().positive().default(20),
  /** ... and how many more it regains per minute. */
  AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().positive().default(30),
  /** express `trust proxy`: how the client address is taken from X-Forwarded-For behind an ingress ('false', a hop count, or addresses/CIDRs). */
  TRUST_PROXY: z.string().default('false'),
  /** The request head must arrive within this (slow-header clients are cut). */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** The whole request (head and body) must arrive within this. */
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  /** Idle keep-alive connections are closed after this. */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().positive().default(5_000),
  /** Concurrent client connections per gateway process; more are refused. */
  HTTP_MAX_CONNECTIONS: z.coerce.number().int().positive().default(4_000),
  /** A request body must be through within this after the request's head (408 beyond). */
  BODY_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  /** Requests forwarded to one service at once (its sockets); more wait in a queue ... */
  UPSTREAM_MAX_IN_FLIGHT: z.coerce.number().int().positive().default(256),
  /** ... of at most this many per service (503 SERVICE_BUSY + Retry-After beyond) ... */
  UPSTREAM_MAX_QUEUE: z.coerce.number().int().min(0).default(1_024),
  /** ... for at most this long (503 SERVICE_BUSY beyond). */
  UPSTREAM_QUEUE_TIMEOUT_MS: z.coerce.number().int().positive().default(5_000),
  /** Requests of one company in progress at once on a gateway replica (429 TOO_MANY_CONCURRENT_REQUESTS beyond); long polls not counted. */
  CONCURRENT_REQUESTS_PER_COMPANY: z.coerce.number().int().positive().default(64),
  /** Long polls (`?wait=`) of one company open at once on a replica; more are answered at once, as without `wait`. */
  LONG_POLLS_PER_COMPANY: z.coerce.number().int().positive().default(25),
  /** Long polls open at once per service on a replica, on sockets of their own; more are answered at once. */
  LONG_POLLS_PER_SERVICE: z.coerce.number().int().positive().default(512),
});
export type GatewayConfig = z.output<typeof gatewayConfig>;
