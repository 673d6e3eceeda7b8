import type { NextFunction, Request, Response } from 'express';
import { roleAllows, type Permission } from '@inv/contracts';
import { AppError } from '@inv/service-kit';

const under = (...prefixes: string[]) => new RegExp(`^/(${prefixes.join('|')})(/|$)`);
const KEYS = under('company/api-keys');
const MEMBERS = under('members');
const AUDIT = under('audit-log');
const EXPORT = under('exports', 'acctexp', 'datev', 'downloads');
const COMPANY_DATA = under('company', 'numbering', 'template', 'customer/payment-terms');
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The one place that says which permission a public route needs (the table of roles is in
 * libs/contracts roles.ts): keys and members need their own, exports theirs, other reads `read`,
 * writes of company data `company:write`, every other write `invoices:write`.
 */
export function permissionOf(method: string, path: string): Permission {
  if (KEYS.test(path)) return 'keys:manage';
  if (AUDIT.test(path)) return 'members:manage';
  if (MEMBERS.test(path)) return READ_METHODS.has(method) ? 'read' : 'members:manage';
  if (EXPORT.test(path)) return 'export';
  if (READ_METHODS.has(method)) return 'read';
  if (COMPANY_DATA.test(path)) return 'company:write';
  return 'invoices:write';
}

/** 403 FORBIDDEN naming the missing permission when the authenticated key's (or member's) role lacks it. */
export function requirePermission() {
  return (req: Request, res: Response, next: NextFunction) => {
    const role = String(res.locals.role ?? '');
    const needed = permissionOf(req.method, req.path);
    if (!roleAllows(role, needed)) {
      throw new AppError('forbidden', `the role ${role || 'unknown'} lacks the permission ${needed}`, {
        code: 'FORBIDDEN',
        extra: { missing_permission: needed, role },
      });
    }
    next();
  };
}
