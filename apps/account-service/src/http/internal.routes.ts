import { Router } from 'express';
import type { ApiKeysRepo } from '../db/api-keys';
import type { CompaniesRepo } from '../db/companies';
import { verifyApiKey } from '../usecases/api-keys';

/**
 * Called by the gateway only: never routed publicly, and like every /internal/* path it needs the
 * gateway's own signed identity (service-kit requireIdentity), so it is no key oracle for anyone else.
 */
export function internalRoutes(deps: { apiKeys: ApiKeysRepo; companies: CompaniesRepo }): Router {
  const router = Router();
  router.post('/internal/auth/verify', async (req, res) => {
    const key = typeof req.body?.key === 'string' ? req.body.key : undefined;
    res.json(await verifyApiKey(deps, key));
  });
  return router;
}
