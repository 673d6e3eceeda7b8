import { Router } from 'express';
import { companyIdOf } from '@inv/service-kit';
import type { QuotaDeps } from '../support/deps';
import { usageOf } from '../usecases/usage';

export function quotaRoutes(deps: QuotaDeps): Router {
  const r = Router();
  r.get('/quota/', async (req, res) => {
    res.json(await usageOf(deps, companyIdOf(req), new Date()));
  });
  return r;
}
