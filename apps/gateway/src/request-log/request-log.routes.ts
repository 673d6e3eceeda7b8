import express from 'express';
import { asCompanyId, RequestLogQuery } from '@inv/contracts';
import { AppError, parseQuery, problem, type Logger } from '@inv/service-kit';
import type { RequestLogStore } from './store';

/**
 * GET /request-log/: the company's last API requests, newest first (the gateway answers it itself, from Redis).
 * Runs after authentication, the permission check (`read`: every role) and the rate limit.
 */
export function requestLogRoutes(store: RequestLogStore, logger: Logger) {
  const router = express.Router();
  router.get('/request-log', async (req, res) => {
    const query = parseQuery(RequestLogQuery, req.query);
    const page = await store.page(asCompanyId(String(res.locals.companyId)), query).catch((err: unknown) => {
      logger.warn({ err }, 'request log in Redis unreadable');
      throw new AppError('unavailable', 'the request log is temporarily unavailable; retry shortly', { code: 'SERVICE_UNAVAILABLE' });
    });
    res.json(page);
  });
  router.all('/request-log', (req, res) => {
    res
      .status(405)
      .setHeader('allow', 'GET, HEAD')
      .type('application/problem+json')
      .json(problem(405, 'METHOD_NOT_ALLOWED', `${req.method} is not supported on /request-log/; allowed: GET, HEAD`));
  });
  return router;
}
