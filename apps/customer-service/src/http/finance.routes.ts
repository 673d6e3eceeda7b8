import { Router } from 'express';
import { IntId, StatementPdfQuery, StatementQuery } from '@inv/contracts';
import { companyIdOf, parsePath, parseQuery } from '@inv/service-kit';
import type { CustomerDeps } from '../support/deps';
import { toJsonNumber } from '@inv/money';
import type { Statement } from '../domain/ledger-rules';
import { customerStatement } from '../usecases/customer-statement';
import { financialOverview } from '../usecases/financial-overview';
import { statementPdf } from '../usecases/statement-pdf';

function presentStatement(customerId: number, s: Statement) {
  const num = (v: string | undefined) => (v === undefined ? null : toJsonNumber(v));
  return {
    customer_id: customerId,
    currency: 'EUR',
    from: s.from,
    to: s.to,
    opening_balance: toJsonNumber(s.openingBalance),
    entries: s.entries.map((e) => ({
      date: e.date,
      document_number: e.documentNumber,
      type: e.type,
      debit: num(e.debit),
      credit: num(e.credit),
      balance: toJsonNumber(e.balance),
    })),
    closing_balance: toJsonNumber(s.closingBalance),
  };
}

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
