import type { CompanyId } from '@inv/contracts';
import type { RecurringDeps } from '../support/deps';
import { recurringChanged } from '../support/recurring-changed';
import { loadRecurring } from './load-recurring';

/**
 * Deletes a schedule and its run history, and announces it (recurring-invoice.changed.v1); the invoices it issued stay. A run in progress at that moment finds
 * its run gone and stops (its settle writes match nothing).
 */
export async function deleteRecurring(deps: RecurringDeps, companyId: CompanyId, id: number): Promise<void> {
  await loadRecurring(deps, companyId, id);
  await deps.commit(async (session, emit) => {
    const removed = await deps.schedules.remove(companyId, id, session);
    await deps.runs.removeOf(companyId, id, session);
    // announced once: a concurrent delete that came first removed it and announced it
    if (removed.deletedCount === 1) emit(recurringChanged(companyId, id, 'deleted', []));
  });
}
