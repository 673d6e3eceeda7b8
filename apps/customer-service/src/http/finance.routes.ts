import { Router } from 'express';
import { IntId, StatementQuery } from '@inv/contracts';
import { companyIdOf, parsePath, parseQuery } from '@inv/service-kit';
import type { CustomerDeps } from '../usecases/deps';
import { customerStatement, financialOverview, presentStatement, statementPdf } from '../usecases/statements';

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
    res.json(await statementPdf(deps, companyIdOf(req), idOf(req, 'id'), parseQuery(StatementQuery, req.query)));
  });
  return r;
}
