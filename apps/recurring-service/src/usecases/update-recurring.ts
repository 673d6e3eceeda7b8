import type { CompanyId, RecurringInvoiceUpdate, RecurringTemplate } from '@inv/contracts';
import { givenFields } from '@inv/runtime';
import { AppError, conflict, invalidData } from '@inv/service-kit';
import { dateOf, firstIndexAfter, periodOf, runDate, startDateProblem } from '../domain/schedule';
import type { ScheduleDoc } from '../db/schedules';
import type { RecurringDeps } from '../support/deps';
import { presentSchedule } from '../http/presenters';
import { recurringChanged } from '../support/recurring-changed';
import { checkTemplate } from '../support/template-check';
import { loadRecurring } from './load-recurring';

/**
 * Changes the fields given. A new schedule starts after the last period billed, so no period is billed twice;
 * resuming (status active) lets the scheduler issue the periods missed while paused, oldest first. A change of the
 * template or the schedule, and a resume, is saved only once the template passes the checks finalization applies
 * (checkTemplate, on the draft of the next run); pausing and renaming are never refused by them.
 */
export async function updateRecurring(deps: RecurringDeps, companyId: CompanyId, id: number, input: RecurringInvoiceUpdate) {
  const doc = await loadRecurring(deps, companyId, id);
  const template: RecurringTemplate = input.template ?? (JSON.parse(doc.templateJson) as RecurringTemplate);
  const autoFinalize = input.auto_finalize ?? doc.autoFinalize;
  const autoSendEmail = input.auto_send_email ?? doc.autoSendEmail;
  if (autoSendEmail && !autoFinalize)
    throw invalidData('auto_send_email needs auto_finalize', [{ path: 'auto_send_email', message: 'needs auto_finalize' }]);
  if (autoSendEmail && !template.email)
    throw invalidData('auto_send_email needs template.email', [{ path: 'template.email', message: 'required with auto_send_email' }]);
  if (doc.status === 'ended' && input.status === 'active' && !input.schedule)
    throw new AppError('conflict', `recurring invoice ${id} has ended; give a schedule with a later end_date to resume it`, {
      code: 'RECURRING_ENDED',
    });

  // a start_date kept as it was stays accepted (the schedule has run since; its billed periods are skipped)
  if (input.schedule && input.schedule.start_date !== doc.schedule.start_date) {
    const startProblem = startDateProblem(input.schedule.start_date, dateOf(deps.now()));
    if (startProblem) throw invalidData(`schedule.start_date ${startProblem}`, [{ path: 'schedule.start_date', message: startProblem }]);
  }

  const set: Partial<ScheduleDoc> = { autoFinalize, autoSendEmail, updatedAt: deps.now() };
  if (input.name !== undefined) set.name = input.name;
  if (input.template) set.templateJson = JSON.stringify(input.template);
  let status = doc.status;
  if (input.schedule) {
    const nextIndex = firstIndexAfter(input.schedule, doc.billedUntil ?? undefined);
    set.schedule = input.schedule;
    set.nextIndex = nextIndex;
    set.nextRunDate = runDate(input.schedule, nextIndex);
    if (set.nextRunDate === null) status = 'ended';
    else if (status === 'ended') status = 'active';
  }
  if (input.status && status !== 'ended') status = input.status;
  set.status = status;
  if (status !== 'ended' && (input.template !== undefined || input.schedule !== undefined || input.status === 'active')) {
    const schedule = set.schedule ?? doc.schedule;
    const nextIndex = set.nextIndex ?? doc.nextIndex;
    await checkTemplate(deps, companyId, template, periodOf(schedule, nextIndex));
  }
  set.pausedReason = status === 'paused' ? (input.status === 'paused' ? 'user' : doc.pausedReason) : null;
  const action =
    status === 'paused' && doc.status !== 'paused' ? 'paused' : doc.status === 'paused' && status === 'active' ? 'resumed' : 'updated';
  // the change and its announcement in one transaction, whose result is the answer (a retry with the same
  // Idempotency-Key whose first attempt committed gets it again); an optimistic miss writes and announces nothing
  return deps.commit(async (session, emit) => {
    if (!(await deps.schedules.replace(companyId, id, doc.version, set, session)))
      throw conflict(`recurring invoice ${id} changed at the same time (a run may have just finished); retry`, 'CONCURRENT_MODIFICATION');
    emit(recurringChanged(companyId, id, action, givenFields(input)));
    return presentSchedule({ ...doc, ...set, version: doc.version + 1 });
  });
}
