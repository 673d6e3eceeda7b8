import type { CompanyId } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import type { ScheduleDoc } from '../db/schedules';
import type { RecurringDeps } from '../support/deps';

/** A schedule of the company; 404 for another company's id as for one that does not exist. */
export async function loadRecurring(deps: RecurringDeps, companyId: CompanyId, id: number): Promise<ScheduleDoc> {
  const doc = await deps.schedules.get(companyId, id);
  if (!doc) throw notFound(`recurring invoice ${id}`);
  return doc;
}
