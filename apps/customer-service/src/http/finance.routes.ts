import { Router } from 'express';
import { IntId, StatementQuery } from '@inv/contracts';
import { companyIdOf, parseInput } from '@inv/service-kit';
import type { CustomerDeps } from '../usecases/deps';
import { customerStatement, financialOverview, presentStatement, statementPdf } from '../usecases/statements';

const idOf = (v: unknown) => IntId.parse(v);

export function financeRoutes(deps: CustomerDeps): Router {
  const r = Router();
  r.get('/customer/:id/financial-overview', async (req, res) => {
    res.json(await financialOverview(deps, companyIdOf(req), idOf(req.params.id)));
  });
  r.get('/customer/:id/statement', async (req, res) => {
    const id = idOf(req.params.id);
    const { statement } = await customerStatement(deps, companyIdOf(req), id, parseInput(StatementQuery, req.query));
    res.json(presentStatement(id, statement));
  });
  r.get('/customer/:id/statement/pdf', async (req, res) => {
    res.json(await statementPdf(deps, companyIdOf(req), idOf(req.params.id), parseInput(StatementQuery, req.query)));
  });
  return r;
}
