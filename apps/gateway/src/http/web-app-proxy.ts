import { Agent } from 'node:http';
import type { Request, Response } from 'express';
import httpProxy from 'http-proxy';
import { problem, type Logger } from '@inv/service-kit';
import { proxyTarget } from './proxy';

/**
 * /app/ -> the dashboard (apps/web). The gateway stays the one edge: the browser talks to it alone, and the dashboard
 * reaches the platform only through the gateway's public API. The Host header goes along unchanged (the dashboard
 * compares a form's Origin with it), and X-Forwarded-For carries the browser's address (its sign-in limit counts
 * per address). Nothing else is added: the dashboard gets no identity from here, only what the browser sent.
 */
export function proxyToWebApp(webUrl: string, logger: Logger) {
  const target = proxyTarget(webUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 256, timeout: 4_000 });
  const proxy = httpProxy.createProxyServer({ xfwd: true, changeOrigin: false, agent, proxyTimeout: 60_000 });
  proxy.on('error', (err) => logger.warn({ err }, 'web app proxy error'));
  proxy.on('econnreset', () => undefined);
  return (req: Request, res: Response) => {
    req.url = req.originalUrl; // the dashboard's routes are under /app, as the browser sees them
    proxy.web(req, res, { target }, (err) => {
      logger.warn({ err }, 'the dashboard is unreachable');
      if (res.headersSent) return void res.destroy();
      res
        .status(503)
        .setHeader('Retry-After', '5')
        .type('application/problem+json')
        .json(problem(503, 'SERVICE_UNAVAILABLE', 'the dashboard is temporarily unavailable; retry shortly'));
    });
  };
}
