import type { CompanyId, RecurringRunsQuery } from '@inv/contracts';
import type { RecurringDeps } from '../support/deps';
import { presentRun } from '../http/presenters';
import { loadRecurring } from './load-recurring';

/** The runs of a schedule, newest period first: each with the invoice it issued. */
export async function listRuns(deps: RecurringDeps, companyId: CompanyId, id: number, q: RecurringRunsQuery) {
  await loadRecurring(deps, companyId, id);
  const { docs, total } = await deps.runs.list(companyId, id, q);
  return { runs: docs.map(presentRun), total, page: q.page, limit: q.limit };
}
