import { Router } from 'express';
import { IntId, StatementPdfQuery, StatementQuery } from '@inv/contracts';
import { companyIdOf, parsePath, parseQuery } from '@inv/service-kit';
import type { CustomerDeps } from '../support/deps';
import { presentStatement } from './presenters';
import { customerStatement } from '../usecases/customer-statement';
import { financialOverview } from '../usecases/financial-overview';
import { statementPdf } from '../usecases/statement-pdf';

const idOf = (req: { params: Record<string, unknown> }, name: string) => parsePath(IntId, req.params, name);

export function financeRoutes(deps: CustomerDeps): Router {
  const r = Router();
  r.get('/customer/:id/financial-overview', async (req, res) => {
    res.json(await financialOverview(deps, companyIdOf(req), idOf(req, 'id')));
  });
  r.get('/customer/:id/statement', async (req, res) => {
    const id = idOf(req, 'id');
    const { statement } = await customerStatement(deps, companyIdOf(req), id, parseQuery(StatementQuery, req.query));
    res.json(presentStatement(id, statement));
  });
  r.get('/customer/:id/statement/pdf', async (req, res) => {
    res.json(await statementPdf(deps, companyIdOf(req), idOf(req, 'id'), parseQuery(StatementPdfQuery, req.query)));
  });
  return r;
}
