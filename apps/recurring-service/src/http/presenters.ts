import type { RecurringInvoice, RecurringRun } from '@inv/contracts';
import type { RunDoc } from '../db/runs';
import type { ScheduleDoc } from '../db/schedules';
import { templateView } from '../domain/template';

/** A schedule as every answer gives it (create, update, get and list alike), its amounts as JSON numbers. */
export function presentSchedule(doc: ScheduleDoc): RecurringInvoice {
  return {
    id: doc.id,
    name: doc.name,
    template: templateView(doc.templateJson),
    schedule: doc.schedule,
    auto_finalize: doc.autoFinalize,
    auto_send_email: doc.autoSendEmail,
    status: doc.status,
    paused_reason: doc.status === 'paused' ? (doc.pausedReason ?? 'user') : null,
    next_run_date: doc.nextRunDate,
    last_run: doc.lastRun && {
      date: doc.lastRun.date,
      period_start: doc.lastRun.periodStart,
      period_end: doc.lastRun.periodEnd,
      invoice_id: doc.lastRun.invoiceId,
      outcome: doc.lastRun.outcome,
      error: doc.lastRun.error,
    },
    created_at: doc.createdAt.toISOString(),
    updated_at: doc.updatedAt.toISOString(),
  };
}

export function presentRun(doc: RunDoc): RecurringRun {
  return {
    id: `${doc.scheduleId}:${doc.period}`,
    date: doc.period,
    period_start: doc.period,
    period_end: doc.periodEnd,
    invoice_id: doc.invoiceId,
    outcome: doc.outcome,
    error: doc.error,
    started_at: doc.startedAt.toISOString(),
    finished_at: doc.finishedAt?.toISOString() ?? null,
  };
}
