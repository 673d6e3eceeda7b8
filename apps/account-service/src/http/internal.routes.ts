import { Router } from 'express';
import type { ApiKeysRepo } from '../db/api-keys';
import type { CompaniesRepo } from '../db/companies';
import type { MembersRepo } from '../db/members';
import type { MemberSessionsRepo } from '../db/member-sessions';
import { verifyApiKey } from '../usecases/verify-api-key';
import { verifyAccessToken } from '../usecases/verify-access-token';

/**
 * Called by the gateway only: never routed publicly, and like every /internal/* path it needs the
 * gateway's own signed identity (service-kit requireIdentity), so it is no key oracle for anyone else.
 */
export function internalRoutes(deps: {
  apiKeys: ApiKeysRepo;
  companies: CompaniesRepo;
  sessions: MemberSessionsRepo;
  members: MembersRepo;
}): Router {
  const router = Router();
  router.post('/internal/auth/verify', async (req, res) => {
    const key = typeof req.body?.key === 'string' ? req.body.key : undefined;
    // an API key, or a member's access token (the dashboard's): both are checked here, for the gateway
    res.json(key?.startsWith('mt_') ? await verifyAccessToken({ ...deps, now: () => new Date() }, key) : await verifyApiKey(deps, key));
  });
  return router;
}
