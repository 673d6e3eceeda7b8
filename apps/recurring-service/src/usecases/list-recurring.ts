import type { CompanyId, RecurringListQuery } from '@inv/contracts';
import type { RecurringDeps } from '../support/deps';
import { presentSchedule } from '../http/presenters';

export async function listRecurring(deps: RecurringDeps, companyId: CompanyId, q: RecurringListQuery) {
  const { docs, total } = await deps.schedules.list(companyId, q);
  return { recurring_invoices: docs.map(presentSchedule), total, page: q.page, limit: q.limit };
}
