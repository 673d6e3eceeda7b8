import express from 'express';
import { connectRedis, createHttpApp, createLogger, finalizeApp, listen, redisReady } from '@inv/service-kit';
import { startTelemetry } from '@inv/telemetry';
import { authenticate } from './auth/authenticate';
import type { GatewayConfig } from './config';
import { idempotency } from './http/idempotency';
import { proxyToServices, targetFinder } from './http/proxy';
import { rateLimit } from './http/rate-limit';
import { openApiRoutes } from './openapi/openapi.routes';
import { routeTable } from './routes-table';

/** Public HTTP edge: API-key auth, rate limit, routing to the owning service, OpenAPI document. */
export async function createGateway(config: GatewayConfig) {
  startTelemetry({ serviceName: 'gateway', otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT });
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const redis = connectRedis(config.REDIS_URL, `${config.REDIS_PREFIX}gw:`);
  const app = createHttpApp({ service: 'gateway', logger, jsonBody: false, readiness: [{ name: 'redis', check: () => redisReady(redis) }] });

  const api = express.Router();
  api.use(openApiRoutes());
  api.use(authenticate(config.ACCOUNT_URL));
  api.use(rateLimit(redis, config.RATE_LIMIT_PER_SECOND));
  const table = routeTable(config);
  api.use(idempotency(redis, config.IDEMPOTENCY_TTL_SECONDS, targetFinder(table)));
  api.use(proxyToServices(table, config.UPSTREAM_TIMEOUT_MS, logger));
  app.use('/api/v1', api);
  finalizeApp(app, logger);

  let http: Awaited<ReturnType<typeof listen>> | undefined;
  return {
    runtime: { logger },
    async start() {
      http = await listen(app, config.PORT, config.HOST);
      logger.info({ url: `${http.url}/api/v1` }, 'gateway listening');
      return http;
    },
    async stop() {
      await http?.close();
      redis.disconnect();
    },
  };
}
