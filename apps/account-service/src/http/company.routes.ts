import { Router } from 'express';
import { ApiKeyCreate } from '@inv/contracts';
import { companyIdOf, notFound, parseInput } from '@inv/service-kit';
import type { ApiKeysRepo } from '../db/api-keys';
import type { CompaniesRepo } from '../db/companies';
import { createApiKey, listApiKeys, revokeApiKey } from '../usecases/api-keys';

export function companyRoutes(deps: { apiKeys: ApiKeysRepo; companies: CompaniesRepo; announceRevoked: (keyId: string, companyId: string) => Promise<void> }): Router {
  const router = Router();
  router.get('/company/', async (req, res) => {
    const company = await deps.companies.byId(companyIdOf(req));
    if (!company) throw notFound('company');
    const { _id, createdAt, ...profile } = company;
    res.json({ id: _id, ...profile, created_at: createdAt.toISOString() });
  });
  router.get('/company/api-keys', async (req, res) => {
    res.json({ api_keys: await listApiKeys(deps, companyIdOf(req)) });
  });
  router.post('/company/api-keys', async (req, res) => {
    const { name } = parseInput(ApiKeyCreate, req.body);
    const created = await createApiKey(deps, companyIdOf(req), name);
    res.status(201).json({ message: 'API key created; it is shown only once', ...created });
  });
  router.delete('/company/api-keys/:id', async (req, res) => {
    await revokeApiKey(deps, companyIdOf(req), req.params.id);
    res.json({ message: 'API key revoked' });
  });
  return router;
}
