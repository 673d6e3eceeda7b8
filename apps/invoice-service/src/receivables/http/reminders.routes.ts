import { Router } from 'express';
import { IntId, ReminderCreate, ReminderListQuery, ReminderSettingsUpdate } from '@inv/contracts';
import { AppError, companyIdOf, parseInput, parsePath, parseQuery } from '@inv/service-kit';
import type { DunningDeps } from '../deps';
import { getReminderSettings } from '../usecases/get-reminder-settings';
import { issueReminder } from '../usecases/issue-reminder';
import { listCompanyReminders } from '../usecases/list-company-reminders';
import { listReminderProposals, listReminders, reminderLink } from '../usecases/list-reminders';
import { saveReminderSettings } from '../usecases/save-reminder-settings';
import { presentLink, presentProposal, presentReminder, presentReminderPage, presentReminderSettings } from '../../http/presenters';

/**
 * Reminders (Mahnwesen): the company's settings, issuing and listing an invoice's reminders, the company's reminders,
 * the daily run's proposals.
 */
export function reminderRoutes(deps: DunningDeps): Router {
  const r = Router();
  r.get('/invoice/reminder-settings', async (req, res) => {
    res.json(presentReminderSettings(await getReminderSettings(deps, companyIdOf(req))));
  });
  r.put('/invoice/reminder-settings', async (req, res) => {
    res.json(presentReminderSettings(await saveReminderSettings(deps, companyIdOf(req), parseInput(ReminderSettingsUpdate, req.body))));
  });
  r.get('/invoice/reminder-proposals', async (req, res) => {
    res.json({ proposals: (await listReminderProposals(deps, companyIdOf(req))).map(presentProposal) });
  });
  // before /invoice/:id (invoiceRoutes come later): `reminders` is no invoice id
  r.get('/invoice/reminders', async (req, res) => {
    res.json(presentReminderPage(await listCompanyReminders(deps, companyIdOf(req), parseQuery(ReminderListQuery, req.query))));
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
    res.json(presentLink(await reminderLink(deps, companyIdOf(req), id, rid)));
  });
  return r;
}
