import type { CompanyId } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';
import { AppError } from '@inv/service-kit';
import { dueLevel } from '../domain/dunning';
import type { DunningDeps } from '../deps';
import { reminderSettingsFor } from './get-reminder-settings';
import { dueDateOf, issueReminder, notRemindable, openAmountOf } from './issue-reminder';

/** How long a replica holds a company's run of a day before another may take it over (it died). */
export const RUN_LEASE_MS = 10 * 60_000;

export interface RunCounts {
  companies: number;
  overdue: number;
  proposed: number;
  sent: number;
}

/**
 * The daily reminder run (on `deps.now()`'s UTC day): for each company with open invoices past their due date, claimed
 * per company and day in MongoDB (one replica does a company's day), each such invoice with an open amount is
 * announced once per due date as `invoice.overdue.v1`, and when a reminder level is due (domain/dunning.ts dueLevel):
 * mode `propose` records a proposal, mode `send` issues the reminder and e-mails it to the buyer's address on the
 * invoice (a proposal with the reason when it cannot be sent).
 */
export async function runReminders(
  deps: DunningDeps,
  owner: string,
  logger?: { warn: (o: object, m: string) => void },
): Promise<RunCounts> {
  const now = deps.now();
  const day = now.toISOString().slice(0, 10);
  const counts: RunCounts = { companies: 0, overdue: 0, proposed: 0, sent: 0 };
  for (const companyId of await deps.reminders.companiesWithOverdueAcrossCompanies(day)) {
    if (!(await deps.reminders.claimRun(companyId, day, owner, now, RUN_LEASE_MS))) continue;
    counts.companies++;
    const mine = { proposed: 0, sent: 0, overdue: 0 };
    await runCompany(deps, companyId, day, mine, logger);
    await deps.reminders.finishRun(companyId, day, owner, mine, deps.now());
    counts.overdue += mine.overdue;
    counts.proposed += mine.proposed;
    counts.sent += mine.sent;
  }
  return counts;
}

async function runCompany(
  deps: DunningDeps,
  companyId: CompanyId,
  day: string,
  counts: { proposed: number; sent: number; overdue: number },
  logger?: { warn: (o: object, m: string) => void },
) {
  const settings = await reminderSettingsFor(deps, companyId);
  for (const invoiceId of await deps.reminders.overdueOf(companyId, day)) {
    const inv = await deps.invoices.get(companyId, invoiceId);
    if (!inv || notRemindable(inv, day)) continue;
    const dueDate = dueDateOf(inv)!;
    const openAmount = openAmountOf(inv);
    const announced = await deps.commit(async (session, emit) => {
      if (!(await deps.reminders.announceOverdue(companyId, invoiceId, dueDate, deps.now(), session))) return false;
      emit(
        eventMessage(
          'invoice.overdue.v1',
          companyId,
          { invoiceId, customerId: inv.customerId, number: inv.number, dueDate, openAmount },
          `overdue-${companyId}-${invoiceId}-${dueDate}`,
        ),
      );
      return true;
    });
    if (announced) counts.overdue++;
    if (settings.mode === 'off') continue;
    const issued = await deps.reminders.ofInvoice(companyId, invoiceId);
    const level = dueLevel(dueDate, issued, day, settings.intervalDays);
    if (!level) continue;
    const propose = async (reason?: string) => {
      const fresh = await deps.reminders.propose({
        _id: `${companyId}:${invoiceId}:${level}`,
        companyId,
        invoiceId,
        customerId: inv.customerId,
        number: inv.number,
        level,
        dueDate,
        openAmount,
        proposedOn: day,
        reason,
        createdAt: deps.now(),
      });
      if (fresh) counts.proposed++;
    };
    if (settings.mode === 'propose') {
      await propose();
      continue;
    }
    try {
      await issueReminder(deps, companyId, invoiceId, { level, date: day, send_email: true }, { source: 'daily_run' });
      counts.sent++;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      // e.g. no e-mail address of the buyer, the day's e-mail limit: the company decides (a proposal with the reason)
      logger?.warn({ companyId, invoiceId, code: err.options.code }, 'the daily run could not send a due reminder; proposed instead');
      if (err.options.code !== 'REMINDER_LEVEL_ISSUED') await propose(err.message.slice(0, 500));
    }
  }
}
