import express from 'express';
import { BANK_STATEMENT_MAX_BYTES, INBOUND_PDF_MAX_BYTES, INBOUND_XML_MAX_BYTES } from '@inv/contracts';
import type { LogDestination } from '@inv/service-kit';
import {
  connectRedis,
  createFailedAuthLimiter,
  createHttpApp,
  createIdentitySigner,
  createLogger,
  finalizeApp,
  listen,
  redisReady,
  releaseStartupGarbage,
  resolveIdentityKeys,
} from '@inv/service-kit';
import { startTelemetry } from '@inv/telemetry';
import { authenticate } from './auth/authenticate';
import { publicAuth, unlessPublicAuth } from './auth/public-auth';

import { createKeyCache } from './auth/key-cache';
import { collapseSlashes, requirePermission } from './auth/permissions';
import { subscribeToRevocations } from './auth/revocations';
import type { GatewayConfig } from './config';
import { idempotency } from './http/idempotency';
import { proxyToServices, targetFinder } from './http/proxy';
import { bodyLimit } from './http/body-limit';
import { bodyTimeout } from './http/body-timeout';
import { companyConcurrency } from './http/company-concurrency';
import { createRateLimiter } from './http/rate-limit';
import { rejectDotSegments, securityHeaders } from './http/security-headers';
import { openApiRoutes } from './openapi/openapi.routes';
import { buildOpenApiDocument } from './openapi/document';
import { refuseUnknownQuery } from './http/query-guard';
import { metricsRouteOf, routeTable, upstreamTimeoutOf } from './routes-table';
import { proxyToWebApp } from './http/web-app-proxy';
import { createRequestRecorder } from './request-log/recorder';
import { requestLogRoutes } from './request-log/request-log.routes';
import { requestLogStore } from './request-log/store';

/** `TRUST_PROXY` as express understands it: false, a hop count, or addresses/CIDRs. */
const trustProxy = (v: string) => (v === 'false' ? false : v === 'true' ? true : /^\d+$/.test(v) ? Number(v) : v);

/** Public HTTP edge: API-key auth, rate limit, routing to the owning service, OpenAPI document. */
export async function createGateway(config: GatewayConfig, hooks: { onAuthLookup?: () => void; logDestination?: LogDestination } = {}) {
  startTelemetry({ serviceName: 'gateway', otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT });
  const logger = createLogger('gateway', config.LOG_LEVEL, hooks.logDestination);
  const signer = createIdentitySigner(resolveIdentityKeys(config, logger));
  const redis = connectRedis(config.REDIS_URL, `${config.REDIS_PREFIX}gw:`);
  const table = routeTable(config);
  const app = createHttpApp({
    service: 'gateway',
    logger,
    jsonBody: false,
    readiness: [{ name: 'redis', check: () => redisReady(redis) }],
    // proxied requests are labelled by the owning prefix; /metrics answers Prometheus, not the ingress
    metricsRouteLabel: (req) => metricsRouteOf(table, req.originalUrl),
    metricsRefuseForwarded: true,
  });
  app.set('trust proxy', trustProxy(config.TRUST_PROXY));
  app.use(securityHeaders());

  const cache = createKeyCache({ ttlMs: config.AUTH_CACHE_TTL_MS, negativeTtlMs: config.AUTH_NEGATIVE_CACHE_TTL_MS });
  const limiter = createFailedAuthLimiter(redis, { burst: config.AUTH_FAILURES_BURST, perMinute: config.AUTH_FAILURES_PER_MINUTE }, (err) =>
    logger.warn({ err }, 'failed-authentication limiter unavailable (Redis); not limiting'),
  );
  const revocations = await subscribeToRevocations(config.REDIS_URL, config.REDIS_PREFIX, cache, logger);

  const requestLog = requestLogStore(redis, {
    maxEntries: Math.max(1, config.REQUEST_LOG_MAX_ENTRIES),
    ttlSeconds: config.REQUEST_LOG_TTL_SECONDS,
  });
  const api = express.Router();
  // first: the duration counts from here, and whatever answers after authentication is recorded (request-log/recorder.ts)
  const recorder = config.REQUEST_LOG_MAX_ENTRIES > 0 ? createRequestRecorder(requestLog, logger) : undefined;
  if (recorder) api.use(recorder.middleware);
  api.use(rejectDotSegments);
  api.use(collapseSlashes);
  api.use(bodyTimeout(config.BODY_TIMEOUT_MS));
  api.use(
    bodyLimit(config.MAX_BODY_BYTES, [
      { method: 'POST', path: /^\/invoice\/[^/]+\/attachments\/?$/, maxBytes: config.MAX_UPLOAD_BYTES },
      // a logo is at most 1 MiB: account-service cuts it and answers LOGO_TOO_LARGE
      { method: 'PUT', path: /^\/company\/logo\/?$/, maxBytes: config.MAX_UPLOAD_BYTES },
      // a received e-invoice PDF is at most 10 MiB (inbound-service cuts it and answers DOCUMENT_TOO_LARGE); 64 KiB for a form's framing
      // a raw XML document: at most 5 MiB
      {
        method: 'POST',
        path: /^\/inbound\/?$/,
        maxBytes: INBOUND_PDF_MAX_BYTES + 64 * 1024,
        types: [
          { type: /^(application|text)\/xml$/, maxBytes: INBOUND_XML_MAX_BYTES },
          { type: /^application\/pdf$/, maxBytes: INBOUND_PDF_MAX_BYTES },
        ],
      },
      // a camt.053 bank statement is at most 20 MiB (invoice-service cuts it and answers BANK_STATEMENT_TOO_LARGE); 64 KiB for a form's framing
      {
        method: 'POST',
        path: /^\/bank-statements\/?$/,
        maxBytes: BANK_STATEMENT_MAX_BYTES + 64 * 1024,
        types: [{ type: /^(application|text)\/xml$/, maxBytes: BANK_STATEMENT_MAX_BYTES }],
      },
    ]),
  );
  // built once per process: served as the reference, and the operations' query parameters are checked against it
  const openApi = buildOpenApiDocument();
  api.use(openApiRoutes(openApi));
  api.use(publicAuth(signer));
  api.use(unlessPublicAuth(authenticate({ accountUrl: config.ACCOUNT_URL, signer, cache, limiter, logger, onLookup: hooks.onAuthLookup })));
  api.use(unlessPublicAuth(requirePermission()));
  api.use(refuseUnknownQuery(openApi));
  const rateLimiter = createRateLimiter(redis, config.RATE_LIMIT_PER_SECOND, {
    onRedisError: (err) => logger.warn({ err }, 'rate limit in Redis failed; limiting per replica'),
  });
  api.use(rateLimiter.middleware);
  api.use(companyConcurrency(config.CONCURRENT_REQUESTS_PER_COMPANY, config.LONG_POLLS_PER_COMPANY));
  // answered by the gateway itself, from Redis: never proxied
  api.use(requestLogRoutes(requestLog, logger));
  api.use(idempotency(redis, config.IDEMPOTENCY_TTL_SECONDS, targetFinder(table), signer));
  api.use(
    proxyToServices(table, upstreamTimeoutOf(config), logger, {
      maxInFlight: config.UPSTREAM_MAX_IN_FLIGHT,
      maxQueue: config.UPSTREAM_MAX_QUEUE,
      queueTimeoutMs: config.UPSTREAM_QUEUE_TIMEOUT_MS,
      maxLongPolls: config.LONG_POLLS_PER_SERVICE,
    }),
  );
  app.use('/api/v1', api);
  // the dashboard (apps/web) under /app/: the gateway stays the edge and passes its pages through
  app.use('/app', proxyToWebApp(config.WEB_URL, logger));
  finalizeApp(app, logger);

  let http: Awaited<ReturnType<typeof listen>> | undefined;
  return {
    runtime: { logger },
    keyCache: cache,
    async start() {
      releaseStartupGarbage(logger);
      http = await listen(app, config.PORT, config.HOST, {
        headersTimeoutMs: config.HTTP_HEADERS_TIMEOUT_MS,
        requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS,
        keepAliveTimeoutMs: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
        maxConnections: config.HTTP_MAX_CONNECTIONS,
      });
      logger.info({ url: `${http.url}/api/v1`, app: `${http.url}/app/` }, 'gateway listening');
      return http;
    },
    async stop() {
      await http?.close();
      await recorder?.stop();
      rateLimiter.stop();
      revocations.stop();
      redis.disconnect();
    },
  };
}
