import type { CompanyId, StatementQuery } from '@inv/contracts';
import { statementOf } from '../domain/ledger-rules';
import type { CustomerDeps } from '../support/deps';
import { loadCustomer } from './load-customer';
import { periodOf, today } from '../support/statement-period';

export async function customerStatement(deps: CustomerDeps, companyId: CompanyId, customerId: number, q: StatementQuery) {
  const customer = await loadCustomer(deps, companyId, customerId);
  const { from, to } = periodOf(q, today(deps));
  return { customer, statement: statementOf(await deps.ledger.invoicesOf(companyId, customerId), from, to) };
}
