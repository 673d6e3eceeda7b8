import { Router } from 'express';
import type { Changes } from '@inv/outbox';
import type { Connection } from 'mongoose';
import { companyIdOf } from '@inv/service-kit';
import { resetTestData } from '../usecases/reset-test-data';

/** DELETE /test-data: the test twin's reset (docs/test-mode.md); owners and admins (permissions.ts). */
export function testDataRoutes(deps: { conn: Connection; commit: Changes['commit']; now: () => Date }): Router {
  const router = Router();
  router.delete('/test-data', async (req, res) => {
    res.json(await resetTestData(deps, companyIdOf(req)));
  });
  return router;
}
