import { randomUUID } from 'node:crypto';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { pinoHttp } from 'pino-http';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { requireIdentity, type IdentityVerifier } from './identity';
import type { Logger } from './logger';
import { problem, toProblem } from './problem';

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
  /** Verify the gateway's signed identity before any route (every service; not the gateway itself). */
  identity?: IdentityVerifier;
}

/**
 * express 5 app with the conventions every service shares: request ids, a server span continuing the
 * caller's trace, JSON body limits, /healthz and /readyz, problem+json for unknown routes and errors.
 * Add routes with `app.use(...)`, then call `finalizeApp(app)` to install the 404 and error handlers.
 */
export function createHttpApp(opts: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'extended');
  app.use(traceMiddleware(opts.service));
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
      autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
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
  if (opts.identity) app.use(requireIdentity(opts.identity, opts.logger));
  if (opts.jsonBody !== false) {
    app.use(express.json({ limit: opts.bodyLimit ?? '1mb', type: ['application/json', 'application/*+json'] }));
  }
  return app;
}

/** Installs the 404 fallback and the error handler; call after all routes are registered. */
export function finalizeApp(app: Express, logger: Logger): Express {
  app.use((req: Request, res: Response) => {
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

/** Continues the W3C trace context from the caller (traceparent header) in a SERVER span. */
function traceMiddleware(service: string) {
  const tracer = trace.getTracer(service);
  return (req: Request, res: Response, next: NextFunction) => {
    const parent = propagation.extract(context.active(), req.headers);
    const span = tracer.startSpan(`${req.method} ${req.path}`, { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method, 'url.path': req.path } }, parent);
    res.on('finish', () => {
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(trace.setSpan(parent, span), () => next());
  };
}
