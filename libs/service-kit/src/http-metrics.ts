import type { NextFunction, Request, Response } from 'express';
import { problem } from './problem';
import { httpMetrics, renderMetrics, secondsSince, startProcessMetrics } from '@inv/telemetry';

export interface HttpMetricsOptions {
  service: string;
  /** Route label for requests no express route matched (the gateway labels proxied paths by their table prefix). */
  routeLabel?: (req: Request) => string | undefined;
}

/**
 * The route template of a request: express's matched route (`/invoice/:id/job`), never the raw path, so
 * the label set stays bounded whatever clients send.
 */
function routeOf(req: Request, res: Response, opts: HttpMetricsOptions): string {
  const route = (req as Request & { route?: { path?: unknown } }).route;
  if (route && typeof route.path === 'string') return `${req.baseUrl}${route.path}`;
  const label = opts.routeLabel?.(req);
  if (label) return label;
  return res.statusCode === 404 || res.statusCode === 405 ? 'unmatched' : 'other';
}

/** Counts and times every request when its response finishes (health probes and scrapes included). */
export function httpMetricsMiddleware(opts: HttpMetricsOptions) {
  startProcessMetrics();
  return (req: Request, res: Response, next: NextFunction) => {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const labels = { service: opts.service, method: req.method, route: routeOf(req, res, opts), status: String(res.statusCode) };
      httpMetrics.requests.inc(labels);
      httpMetrics.duration.observe(labels, secondsSince(start));
    });
    next();
  };
}

/**
 * GET /metrics: the Prometheus text format. `refuseForwarded` (the gateway, whose port the ingress
 * exposes) answers 404 to anything that came through a proxy: Prometheus scrapes the pod directly.
 */
export function metricsEndpoint(refuseForwarded: boolean) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (refuseForwarded && (req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined)) {
      res
        .status(404)
        .type('application/problem+json')
        .json(problem(404, 'NOT_FOUND', `no route for ${req.method} ${req.path}`));
      return;
    }
    try {
      const { contentType, body } = await renderMetrics();
      res.setHeader('content-type', contentType);
      res.setHeader('cache-control', 'no-store');
      res.send(body);
    } catch (err) {
      next(err);
    }
  };
}
