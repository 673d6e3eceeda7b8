import type { NextFunction, Request, Response } from 'express';
import { problem } from '@inv/service-kit';

/**
 * A request body must be through within `ms` of the request's head: a client trickling its body would
 * otherwise hold a connection and an upstream slot (the body is streamed to the service) for as long as the
 * server's whole-request timeout. Beyond it: 408 problem+json if nothing was answered yet, and the connection
 * is closed; the forwarded request is aborted with it.
 */
export function bodyTimeout(ms: number) {
  return (req: Request, res: Response, next: NextFunction) => {
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    if (!hasBody || req.readableEnded) return next();
    const timer = setTimeout(() => {
      if (req.complete) return;
      if (!res.headersSent) {
        res.setHeader('connection', 'close');
        res
          .status(408)
          .type('application/problem+json')
          .json(problem(408, 'BODY_TIMEOUT', `the request body did not arrive within ${ms / 1000} s`));
        res.once('finish', () => req.socket.destroy());
      } else req.socket.destroy();
    }, ms);
    timer.unref();
    const done = () => clearTimeout(timer);
    req.once('end', done);
    res.once('close', done);
    next();
  };
}
