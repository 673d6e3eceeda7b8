import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { problem } from '@inv/service-kit';

/**
 * helmet's security headers on every gateway answer. The API itself gets helmet's strict defaults
 * (CSP default-src 'self', no inline scripts). The docs page under /api/v1/docs is a same-origin
 * single-page app served from our own node_modules: it may load same-origin scripts, styles, fonts and
 * workers and needs inline styles (its bootstrap is a same-origin file, no inline script); it loads nothing from
 * another origin and cannot be framed.
 */
export function securityHeaders() {
  const api = helmet();
  const docs = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
      },
    },
  });
  return (req: Request, res: Response, next: NextFunction) =>
    (req.path === '/api/v1/docs' || req.path.startsWith('/api/v1/docs/') ? docs : api)(req, res, next);
}

/** Dot segments (raw or percent-encoded) never reach a service: no path games around the route table. */
export function rejectDotSegments(req: Request, res: Response, next: NextFunction) {
  if (/(^|\/)(\.|%2e){1,2}(\/|$)/i.test(req.path)) {
    res
      .status(404)
      .type('application/problem+json')
      .json(problem(404, 'NOT_FOUND', `resource ${req.path} not found`));
    return;
  }
  next();
}
