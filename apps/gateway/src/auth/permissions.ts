import type { NextFunction, Request, Response } from 'express';
import { missingPermission, permissionOf } from '@inv/contracts';
import { AppError } from '@inv/service-kit';

/** The permission table lives in libs/contracts (permissions.ts), shared with the services, which check it again. */
export { permissionOf };

/**
 * Repeated slashes in the path collapsed once at the edge, before routing and the permission check: the service
 * then routes exactly the path the gateway judged.
 */
export function collapseSlashes(req: Request, _res: Response, next: NextFunction) {
  const q = req.url.indexOf('?');
  const path = q < 0 ? req.url : req.url.slice(0, q);
  if (path.includes('//')) req.url = path.replace(/\/{2,}/g, '/') + (q < 0 ? '' : req.url.slice(q));
  next();
}

/**
 * 403 FORBIDDEN naming the missing permission when the authenticated key's (or member's) role lacks it, under
 * any spelling of the path (case, slashes, percent-escapes: contracts `canonicalPaths`).
 */
export function requirePermission() {
  return (req: Request, res: Response, next: NextFunction) => {
    const role = String(res.locals.role ?? '');
    const missing = missingPermission(role, req.method, req.path);
    if (missing) {
      throw new AppError('forbidden', `the role ${role || 'unknown'} lacks the permission ${missing}`, {
        code: 'FORBIDDEN',
        extra: { missing_permission: missing, role },
      });
    }
    next();
  };
}
