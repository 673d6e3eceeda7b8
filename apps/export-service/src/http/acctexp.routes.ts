import { Router } from 'express';
import { AccountMappingsUpdate, AcctExpConfigUpdate } from '@inv/contracts';
import { companyIdOf, parseInput } from '@inv/service-kit';
import type { ExportDeps } from '../support/deps';
import { getMappings } from '../usecases/get-mappings';
import { resetMappings, saveMappings } from '../usecases/save-mappings';
import { updateConfig } from '../usecases/update-config';
import { presentConfig, presentMappings } from './presenters';

/** Company-wide export settings and account mappings; `/datev/config` is the older path existing SDKs use. */
export function acctexpRoutes(deps: ExportDeps): Router {
  const r = Router();
  for (const base of ['/acctexp/config', '/datev/config']) {
    r.get(base, async (req, res) => {
      res.json(presentConfig(await deps.config.get(companyIdOf(req))));
    });
    r.put(base, async (req, res) => {
      const saved = await updateConfig(deps, companyIdOf(req), parseInput(AcctExpConfigUpdate, req.body));
      res.json({ message: 'configuration saved', ...presentConfig(saved) });
    });
  }
  r.get('/acctexp/mappings', async (req, res) => {
    res.json(presentMappings(await getMappings(deps, companyIdOf(req))));
  });
  r.put('/acctexp/mappings', async (req, res) => {
    const m = await saveMappings(deps, companyIdOf(req), parseInput(AccountMappingsUpdate, req.body));
    res.json({ message: 'account mappings saved', ...presentMappings(m) });
  });
  r.post('/acctexp/mappings/reset', async (req, res) => {
    const m = await resetMappings(deps, companyIdOf(req));
    res.json({ message: 'account mappings reset to the defaults of the chart of accounts', ...presentMappings(m) });
  });
  return r;
}
