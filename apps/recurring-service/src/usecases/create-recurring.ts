import type { CompanyId, RecurringInvoiceCreate } from '@inv/contracts';
import { givenFields } from '@inv/runtime';
import { AppError, invalidData } from '@inv/service-kit';
import { dateOf, firstIndexAfter, periodOf, runDate, startDateProblem } from '../domain/schedule';
import type { ScheduleDoc } from '../db/schedules';
import type { RecurringDeps } from '../support/deps';
import { presentSchedule } from '../http/presenters';
import { checkTemplate } from '../support/template-check';
import { recurringChanged } from '../support/recurring-changed';

/** Most schedules (not ended) one company may keep: each is worked on by the scheduler. */
export const MAX_LIVE_SCHEDULES = 500;

/**
 * Saves a schedule whose template passes the checks finalization applies (checkTemplate: 422 naming the fields
 * otherwise, 503 when the invoice API cannot check it now); the template is stored as parsed.
 */
export async function createRecurring(deps: RecurringDeps, companyId: CompanyId, input: RecurringInvoiceCreate) {
  const startProblem = startDateProblem(input.schedule.start_date, dateOf(deps.now()));
  if (startProblem) throw invalidData(`schedule.start_date ${startProblem}`, [{ path: 'schedule.start_date', message: startProblem }]);
  if ((await deps.schedules.countLive(companyId)) >= MAX_LIVE_SCHEDULES)
    throw new AppError('conflict', `at most ${MAX_LIVE_SCHEDULES} recurring invoices that have not ended`, { code: 'RECURRING_LIMIT' });
  const nextIndex = firstIndexAfter(input.schedule, undefined);
  const nextRunDate = runDate(input.schedule, nextIndex);
  // checked on the draft of the first run (its service period)
  await checkTemplate(deps, companyId, input.template, nextRunDate === null ? null : periodOf(input.schedule, nextIndex));
  const id = await deps.counters.next(`recurring:${companyId}`);
  const now = deps.now();
  const doc: ScheduleDoc = {
    _id: `${companyId}:${id}`,
    companyId,
    id,
    name: input.name ?? null,
    templateJson: JSON.stringify(input.template),
    schedule: input.schedule,
    autoFinalize: input.auto_finalize,
    autoSendEmail: input.auto_send_email,
    status: nextRunDate === null ? 'ended' : 'active',
    pausedReason: null,
    nextIndex,
    nextRunDate,
    billedUntil: null,
    lastRun: null,
    version: 0,
    createdAt: now,
    updatedAt: now,
  };
  // a commit whose result is the schedule stored: a retry with the same Idempotency-Key whose first attempt committed
  // gets that schedule (its commit is replayed), never a second one under this attempt's id; announced with it
  const created = await deps.commit(async (session, emit) => {
    await deps.schedules.insert(doc, session);
    emit(recurringChanged(companyId, id, 'created', givenFields(input)));
    return presentSchedule(doc);
  });
  deps.logger.info(
    { companyId, recurringId: created.id, nextRunDate: created.next_run_date, today: dateOf(now) },
    'recurring invoice created',
  );
  return created;
}
