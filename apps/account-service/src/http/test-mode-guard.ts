import type { NextFunction, Request, Response } from 'express';
import { isTestCompany } from '@inv/contracts';
import { AppError, identityOf } from '@inv/service-kit';

/** The company's own things a test twin reads but never changes (docs/test-mode.md). */
export const LIVE_ONLY_PATHS = ['/company', '/members'];

/**
 * A test key reads the live company's profile, bank accounts, payment terms, logo, members and keys (the
 * repositories resolve the twin to its live company), and changes none of them: 403 TEST_MODE_READ_ONLY. Keys are
 * included: a test key, typically handed to a development environment, must not mint live access.
 */
export function refuseTestModeWrites(req: Request, _res: Response, next: NextFunction) {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
  const companyId = identityOf(req)?.companyId;
  if (companyId && isTestCompany(companyId))
    return next(
      new AppError(
        'forbidden',
        "test mode cannot change the live company's profile, bank accounts, payment terms, logo, members or API keys; use a live key",
        { code: 'TEST_MODE_READ_ONLY' },
      ),
    );
  next();
}
