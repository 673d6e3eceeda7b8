import type { CompanyId } from '@inv/contracts';
import { toJsonNumber } from '@inv/money';
import { overviewOf, type Bucket } from '../domain/ledger-rules';
import type { CustomerDeps } from '../support/deps';
import { loadCustomer } from './load-customer';
import { today } from '../support/statement-period';

export async function financialOverview(deps: CustomerDeps, companyId: CompanyId, customerId: number) {
  await loadCustomer(deps, companyId, customerId);
  const o = overviewOf(await deps.ledger.invoicesOf(companyId, customerId), today(deps));
  const bucket = (b: Bucket) => ({ total: toJsonNumber(b.total), count: b.count });
  return {
    customer_id: customerId,
    currency: 'EUR',
    outstanding: bucket(o.outstanding),
    overdue: bucket(o.overdue),
    paid: bucket(o.paid),
    credit_notes: bucket(o.creditNotes),
    balance: toJsonNumber(o.balance),
  };
}
