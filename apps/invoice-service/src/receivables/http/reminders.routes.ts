import { Router } from 'express';
import { IntId, ReminderCreate, ReminderSettingsUpdate } from '@inv/contracts';
import { toJsonNumber } from '@inv/money';
import { AppError, companyIdOf, parseInput, parsePath } from '@inv/service-kit';
import type { ProposalDoc, ReminderDoc } from '../db/reminders';
import type { InvoiceDeps } from '../../platform/deps';
import { getReminderSettings } from '../usecases/get-reminder-settings';
import { issueReminder } from '../usecases/issue-reminder';
import { listReminderProposals, listReminders, reminderLink } from '../usecases/list-reminders';
import { saveReminderSettings } from '../usecases/save-reminder-settings';

export const presentReminder = (r: ReminderDoc) => ({
  id: r.id,
  invoice_id: r.invoiceId,
  level: r.level,
  date: r.date,
  language: r.language,
  b2b: r.b2b,
  open_amount: toJsonNumber(r.openAmount),
  fee: toJsonNumber(r.fee),
  fees: toJsonNumber(r.fees),
  flat_fee: toJsonNumber(r.flatFee),
  interest: toJsonNumber(r.interest),
  interest_from: r.interestFrom,
  interest_periods: r.periods.map((p) => ({ from: p.from, to: p.to, days: p.days, rate_percent: toJsonNumber(p.ratePercent) })),
  total: toJsonNumber(r.total),
  pay_by: r.payBy,
  subject: r.subject,
  email_id: r.emailId ?? null,
  source: r.source,
  created_at: r.createdAt.toISOString(),
});

const presentProposal = (p: ProposalDoc) => ({
  invoice_id: p.invoiceId,
  number: p.number,
  customer_id: p.customerId,
  level: p.level,
  due_date: p.dueDate,
  open_amount: toJsonNumber(p.openAmount),
  proposed_on: p.proposedOn,
  reason: p.reason ?? null,
});

/** Reminders (Mahnwesen): the company's settings, issuing and listing an invoice's reminders, the daily run's proposals. */
export function reminderRoutes(deps: InvoiceDeps): Router {
  const r = Router();
  r.get('/invoice/reminder-settings', async (req, res) => {
    res.json(await getReminderSettings(deps, companyIdOf(req)));
  });
  r.put('/invoice/reminder-settings', async (req, res) => {
    res.json(await saveReminderSettings(deps, companyIdOf(req), parseInput(ReminderSettingsUpdate, req.body)));
  });
  r.get('/invoice/reminder-proposals', async (req, res) => {
    res.json({ proposals: (await listReminderProposals(deps, companyIdOf(req))).map(presentProposal) });
  });
  r.post('/invoice/:id/reminders', async (req, res) => {
    const id = parsePath(IntId, req.params, 'id');
    const reminder = await issueReminder(deps, companyIdOf(req), id, parseInput(ReminderCreate, req.body ?? {})).catch((err: unknown) => {
      const retryAfter = err instanceof AppError ? err.options.extra?.retry_after : undefined;
      if (typeof retryAfter === 'number') res.set('Retry-After', String(retryAfter));
      throw err;
    });
    res.status(201).location(`${req.baseUrl}/invoice/${id}/reminders/${reminder.id}/pdf`).json(presentReminder(reminder));
  });
  r.get('/invoice/:id/reminders', async (req, res) => {
    const id = parsePath(IntId, req.params, 'id');
    res.json({ reminders: (await listReminders(deps, companyIdOf(req), id)).map(presentReminder) });
  });
  r.get('/invoice/:id/reminders/:rid/pdf', async (req, res) => {
    const id = parsePath(IntId, req.params, 'id');
    const rid = parsePath(IntId, req.params, 'rid');
    res.json(await reminderLink(deps, companyIdOf(req), id, rid));
  });
  return r;
}
