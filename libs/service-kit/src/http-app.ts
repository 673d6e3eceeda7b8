import { randomUUID } from 'node:crypto';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { pinoHttp } from 'pino-http';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { httpMetricsMiddleware, metricsEndpoint } from './http-metrics';
import { requireIdentity, type IdentityVerifier } from './identity';
import { lingeringClose } from './lingering-close';
import type { Logger } from './logger';
import { jsonDepthExceeds } from './parse';
import { problem, toProblem } from './problem';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const JSON_TYPE = /^application\/([\w.+-]+\+)?json$/i;
const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** '1mb' -> bytes (the express/bytes notation the body limit uses). */
function bytesOf(limit: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(limit.trim());
  return m ? Math.floor(Number(m[1]) * UNITS[(m[2] ?? 'b').toLowerCase()]) : 1024 ** 2;
}

/**
 * Bodies of JSON routes: a declared length over the limit answers 413 whatever the type (before a byte is
 * read), and a body that is not JSON answers 415 instead of being silently read as `{}`. The rest of such a
 * body is drained so the connection stays usable for the caller (the gateway's keep-alive pool).
 */
function jsonOnly(limit: string, exempt: RegExp[]) {
  const max = bytesOf(limit);
  return (req: Request, res: Response, next: NextFunction) => {
    if (exempt.some((re) => re.test(req.path))) return next();
    const length = Number(req.headers['content-length'] ?? 0);
    const hasBody = length > 0 || req.headers['transfer-encoding'] !== undefined;
    if (!hasBody) return next();
    let refusal: ReturnType<typeof problem> | undefined;
    if (length > max) refusal = problem(413, 'PAYLOAD_TOO_LARGE', `request body exceeds the limit of ${max} bytes`);
    else if (BODY_METHODS.has(req.method)) {
      const type = (req.headers['content-type'] ?? '').split(';')[0].trim();
      if (!JSON_TYPE.test(type))
        refusal = problem(
          415,
          'UNSUPPORTED_MEDIA_TYPE',
          `request bodies must be application/json${type ? `, not ${type}` : ' (Content-Type is missing)'}`,
        );
    }
    if (!refusal) return next();
    req.resume();
    res.status(refusal.status).type('application/problem+json').json(refusal);
  };
}

export interface ReadinessCheck {
  name: string;
  check: () => boolean | Promise<boolean>;
}

export interface HttpAppOptions {
  service: string;
  logger: Logger;
  /** Limit for JSON bodies (express.json `limit`); default 1mb. */
  bodyLimit?: string;
  readiness?: ReadinessCheck[];
  /** Parse JSON bodies (default true); the gateway streams bodies through untouched. */
  jsonBody?: boolean;
  /**
   * Paths whose request bodies are not JSON (e.g. multipart uploads): exempt from the JSON-only rule (415)
   * and from the JSON body limit; such a route bounds its own body.
   */
  nonJsonBodyPaths?: RegExp[];
  /** Verify the gateway's signed identity before any route (every service; not the gateway itself). */
  identity?: IdentityVerifier;
  /** Metric route label for paths no express route matches (the gateway's proxied prefixes). */
  metricsRouteLabel?: (req: Request) => string | undefined;
  /** /metrics answers only unproxied requests (the gateway: its port is what the ingress exposes). */
  metricsRefuseForwarded?: boolean;
}

/**
 * express 5 app with the conventions every service shares: request ids, a server span continuing the
 * caller's trace, JSON body limits, /healthz, /readyz and /metrics (Prometheus; before identity, like the probes),
 * problem+json for unknown routes and errors.
 * Add routes with `app.use(...)`, then call `finalizeApp(app)` to install the 404 and error handlers.
 */
export function createHttpApp(opts: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'extended');
  // a refusal answered while the body still arrives is read, not cut by a reset (lingering-close.ts)
  app.use(lingeringClose());
  app.use(traceMiddleware(opts.service));
  app.use(httpMetricsMiddleware({ service: opts.service, routeLabel: opts.metricsRouteLabel }));
  app.use((req, res, next) => {
    const incoming = req.header('x-request-id');
    const id = incoming && /^[\w.-]{1,128}$/.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = id;
    res.setHeader('x-request-id', id);
    next();
  });
  app.use(
    pinoHttp({
      logger: opts.logger,
      genReqId: (_req, res) => String(res.getHeader('x-request-id')),
      autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' || req.url === '/metrics' },
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
    }),
  );
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', service: opts.service });
  });
  app.get('/readyz', async (_req, res) => {
    const results = await Promise.all(
      (opts.readiness ?? []).map(async (c) => {
        try {
          return [c.name, await c.check()] as const;
        } catch {
          return [c.name, false] as const;
        }
      }),
    );
    const checks = Object.fromEntries(results);
    const ready = results.every(([, ok]) => ok);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', service: opts.service, checks });
  });
  app.get('/metrics', metricsEndpoint(opts.metricsRefuseForwarded ?? false));
  if (opts.identity) app.use(requireIdentity(opts.identity, opts.logger));
  if (opts.jsonBody !== false) {
    const limit = opts.bodyLimit ?? '1mb';
    app.use(jsonOnly(limit, opts.nonJsonBodyPaths ?? []));
    app.use(
      express.json({
        limit,
        type: ['application/json', 'application/*+json'],
        // Depth is checked on the raw bytes before JSON.parse, so deep nesting never reaches a recursion.
        verify: (_req, _res, buf) => {
          if (jsonDepthExceeds(buf)) throw Object.assign(new Error('nesting too deep'), { status: 400, type: 'entity.too.deep' });
        },
      }),
    );
  }
  return app;
}

/** Installs the 404 fallback and the error handler; call after all routes are registered. */
export function finalizeApp(app: Express, logger: Logger): Express {
  app.use((req: Request, res: Response) => {
    const allowed = methodsAllowed(app, req.path);
    if (allowed.length > 0) {
      res
        .status(405)
        .setHeader('allow', allowed.join(', '))
        .type('application/problem+json')
        .json(problem(405, 'METHOD_NOT_ALLOWED', `${req.method} is not supported on ${req.path}; allowed: ${allowed.join(', ')}`));
      return;
    }
    res
      .status(404)
      .type('application/problem+json')
      .json(problem(404, 'NOT_FOUND', `no route for ${req.method} ${req.path}`));
  });
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const { problem: body, unexpected } = toProblem(err);
    if (unexpected) {
      logger.error({ err, error_id: body.error_id, request_id: res.locals.requestId, path: req.path }, 'unhandled error');
      trace.getActiveSpan()?.setStatus({ code: SpanStatusCode.ERROR, message: 'unhandled error' });
    }
    if (res.headersSent) return;
    res.status(body.status).type('application/problem+json').json(body);
  });
  return app;
}

interface RouterLayer {
  route?: { methods: Record<string, boolean> };
  handle?: { stack?: RouterLayer[] };
  matchers?: unknown[];
  match(path: string): boolean;
}

/**
 * The methods some route answers for `path` (for 405 + Allow). Walks express 5's router stack (routes
 * mounted directly or in Routers at '/'); `Layer.match` is the router's own matcher, so params work.
 */
function methodsAllowed(app: Express, path: string): string[] {
  const methods = new Set<string>();
  const walk = (stack: RouterLayer[] | undefined) => {
    for (const layer of stack ?? []) {
      if (layer.route) {
        if (layer.match(path))
          for (const [m, on] of Object.entries(layer.route.methods)) if (on && m !== '_all') methods.add(m.toUpperCase());
      } else if (layer.handle?.stack && layer.match(path)) walk(layer.handle.stack);
    }
  };
  try {
    walk((app as unknown as { router?: { stack: RouterLayer[] } }).router?.stack);
  } catch {
    return [];
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

/** Continues the W3C trace context from the caller (traceparent header) in a SERVER span. */
function traceMiddleware(service: string) {
  const tracer = trace.getTracer(service);
  return (req: Request, res: Response, next: NextFunction) => {
    const parent = propagation.extract(context.active(), req.headers);
    const span = tracer.startSpan(
      `${req.method} ${req.path}`,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method, 'url.path': req.path } },
      parent,
    );
    res.on('finish', () => {
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(trace.setSpan(parent, span), () => next());
  };
}
