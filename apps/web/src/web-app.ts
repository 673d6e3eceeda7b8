import helmet from 'helmet';
import type { LogDestination } from '@inv/service-kit';
import {
  connectRedis,
  createFailedAuthLimiter,
  createHttpApp,
  createLogger,
  finalizeApp,
  listen,
  redisReady,
  releaseStartupGarbage,
} from '@inv/service-kit';
import { startTelemetry } from '@inv/telemetry';
import type { WebConfig } from './config';
import { webRoutes } from './web.routes';

const trustProxy = (v: string) => (v === 'false' ? false : v === 'true' ? true : /^\d+$/.test(v) ? Number(v) : v);

/**
 * The dashboard: server-rendered pages under /app/ (the gateway passes them through), a client of the public API.
 * It keeps no data of its own: Redis holds the browser sessions (sealed) and the sign-in limits.
 */
export async function createWebApp(config: WebConfig, hooks: { logDestination?: LogDestination } = {}) {
  startTelemetry({ serviceName: 'web', otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT });
  const logger = createLogger('web', config.LOG_LEVEL, hooks.logDestination);
  const redis = connectRedis(config.REDIS_URL, `${config.REDIS_PREFIX}web:`);
  const app = createHttpApp({
    service: 'web',
    logger,
    jsonBody: false,
    readiness: [{ name: 'redis', check: () => redisReady(redis) }],
  });
  app.set('trust proxy', trustProxy(config.TRUST_PROXY));
  // helmet's strict defaults: same-origin scripts and styles only, no inline script or style, no framing
  app.use(helmet());
  const limiterError = (err: unknown) => logger.warn({ err }, 'sign-in limiter unavailable (Redis); not limiting');
  const limiter = createFailedAuthLimiter(
    redis,
    { burst: config.LOGIN_FAILURES_BURST, perMinute: config.LOGIN_FAILURES_PER_MINUTE },
    limiterError,
  );
  const addressLimiter = createFailedAuthLimiter(
    redis,
    { burst: config.LOGIN_FAILURES_BURST * 5, perMinute: config.LOGIN_FAILURES_PER_MINUTE * 5 },
    limiterError,
  );
  app.use(
    '/app',
    webRoutes({
      gatewayUrl: config.GATEWAY_URL,
      redis,
      limiter,
      addressLimiter,
      logger,
      production: config.NODE_ENV === 'production',
    }),
  );
  finalizeApp(app, logger);

  let http: Awaited<ReturnType<typeof listen>> | undefined;
  return {
    runtime: { logger },
    async start() {
      releaseStartupGarbage(logger);
      http = await listen(app, config.PORT, config.HOST);
      logger.info({ url: `${http.url}/app/` }, 'dashboard listening');
      return http;
    },
    async stop() {
      await http?.close();
      redis.disconnect();
    },
  };
}
