import type { CompanyId } from '@inv/contracts';
import { overviewOf } from '../domain/ledger-rules';
import { presentOverview } from '../http/presenters';
import type { CustomerDeps } from '../support/deps';
import { loadCustomer } from './load-customer';
import { today } from '../support/statement-period';

export async function financialOverview(deps: CustomerDeps, companyId: CompanyId, customerId: number) {
  await loadCustomer(deps, companyId, customerId);
  return presentOverview(customerId, overviewOf(await deps.ledger.invoicesOf(companyId, customerId), today(deps)));
}
