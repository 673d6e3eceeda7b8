import type { CompanyId } from '@inv/contracts';
import type { RecurringDeps } from '../support/deps';
import { loadRecurring } from './load-recurring';

/**
 * Deletes a schedule and its run history; the invoices it issued stay. A run in progress at that moment finds
 * its run gone and stops (its settle writes match nothing).
 */
export async function deleteRecurring(deps: RecurringDeps, companyId: CompanyId, id: number): Promise<void> {
  await loadRecurring(deps, companyId, id);
  await deps.commit(async (session) => {
    await deps.schedules.remove(companyId, id, session);
    await deps.runs.removeOf(companyId, id, session);
  });
}
