import type { NextFunction, Request, Response } from 'express';
import { AppError, COMPANY_HEADER, unauthenticated } from '@inv/service-kit';

const KEY_PATTERN = /^ak_live_[0-9a-f]{32}$/;

/**
 * X-API-Key -> company, asked of account-service on every request (no cache: a revoked key must stop
 * working at once; the check is one loopback round trip). Malformed keys never leave the gateway.
 */
export function authenticate(accountUrl: string) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const key = req.header('x-api-key');
    if (!key) throw unauthenticated('missing X-API-Key header');
    if (!KEY_PATTERN.test(key)) throw unauthenticated('malformed API key: expected ak_live_ followed by 32 hexadecimal characters');
    let answer: globalThis.Response;
    try {
      answer = await fetch(`${accountUrl}/internal/auth/verify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': String(res.locals.requestId) },
        body: JSON.stringify({ key }),
        signal: AbortSignal.timeout(5000),
      });
    } catch {
      throw new AppError('unavailable', 'authentication is temporarily unavailable; retry shortly', { code: 'SERVICE_UNAVAILABLE' });
    }
    if (answer.status === 401) {
      const body = (await answer.json().catch(() => ({}))) as { message?: string };
      throw unauthenticated(body.message);
    }
    if (!answer.ok) throw new AppError('unavailable', 'authentication is temporarily unavailable; retry shortly', { code: 'SERVICE_UNAVAILABLE' });
    const { companyId } = (await answer.json()) as { companyId: string };
    req.headers[COMPANY_HEADER] = companyId;
    res.locals.companyId = companyId;
    next();
  };
}
