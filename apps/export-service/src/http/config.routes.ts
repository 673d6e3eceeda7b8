import { Router } from 'express';
import { AcctExpConfigUpdate } from '@inv/contracts';
import { AppError, companyIdOf, parseInput } from '@inv/service-kit';
import type { exportConfigRepo } from '../db/export-config';

const present = (c: { consultantNumber?: number; clientNumber?: number; chartOfAccounts: string; fiscalYearStartMonth: number } | null) => ({
  consultant_number: c?.consultantNumber ?? null,
  client_number: c?.clientNumber ?? null,
  chart_of_accounts: c?.chartOfAccounts ?? 'SKR03',
  fiscal_year_start_month: c?.fiscalYearStartMonth ?? 1,
});

/** Company-wide DATEV export settings; `/datev/config` is the older path existing SDKs use. */
export function configRoutes(repo: ReturnType<typeof exportConfigRepo>): Router {
  const r = Router();
  for (const base of ['/acctexp/config', '/datev/config']) {
    r.get(base, async (req, res) => {
      res.json(present(await repo.get(companyIdOf(req))));
    });
    r.put(base, async (req, res) => {
      const companyId = companyIdOf(req);
      const input = parseInput(AcctExpConfigUpdate, req.body);
      const current = present(await repo.get(companyId));
      const next = {
        consultantNumber: input.consultant_number ?? current.consultant_number ?? undefined,
        clientNumber: input.client_number ?? current.client_number ?? undefined,
        chartOfAccounts: input.chart_of_accounts ?? current.chart_of_accounts,
        fiscalYearStartMonth: input.fiscal_year_start_month ?? current.fiscal_year_start_month,
        updatedAt: new Date(),
      };
      await repo.model.updateOne({ _id: companyId }, { $set: next }, { upsert: true });
      res.json({ message: 'configuration saved', ...present({ ...next }) });
    });
  }
  r.get('/downloads/', (_req, res) => {
    res.setHeader('x-total-count', '0');
    res.json([]); // a bare array, as the published SDK reads it (exports arrive with the accounting-export issue)
  });
  r.post('/exports/job', () => {
    throw new AppError('unavailable', 'accounting exports are not available yet in this deployment', { code: 'NOT_IMPLEMENTED' });
  });
  return r;
}
