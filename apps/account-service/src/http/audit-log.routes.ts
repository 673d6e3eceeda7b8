import { Router } from 'express';
import { AuditLogQuery } from '@inv/contracts';
import { companyIdOf, parseQuery } from '@inv/service-kit';
import type { AuditDeps } from '../support/audit-deps';
import { listAuditLog } from '../usecases/list-audit-log';
import { verifyAuditLog } from '../usecases/verify-audit-log';

export function auditLogRoutes(deps: Pick<AuditDeps, 'audit'>): Router {
  const router = Router();
  router.get('/audit-log/', async (req, res) => {
    res.json(await listAuditLog(deps, companyIdOf(req), parseQuery(AuditLogQuery, req.query)));
  });
  router.get('/audit-log/verify', async (req, res) => {
    res.json(await verifyAuditLog(deps, companyIdOf(req)));
  });
  return router;
}
