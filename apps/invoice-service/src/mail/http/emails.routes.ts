import { Router } from 'express';
import { EmailTextsUpdate, IntId, SendEmailRequest } from '@inv/contracts';
import { AppError, companyIdOf, parseInput, parsePath } from '@inv/service-kit';
import type { MailDeps } from '../deps';
import { loadInvoice } from '../../invoices';
import { getEmailTexts } from '../usecases/get-email-texts';
import { resetEmailTexts } from '../usecases/reset-email-texts';
import { saveEmailTexts } from '../usecases/save-email-texts';
import { sendInvoiceEmail } from '../usecases/send-invoice-email';
import { presentEmail, presentEmailTexts } from '../../http/presenters';

export function emailRoutes(deps: MailDeps): Router {
  const r = Router();
  r.get('/invoice/email-texts', async (req, res) => {
    res.json(presentEmailTexts(await getEmailTexts(deps, companyIdOf(req))));
  });
  r.put('/invoice/email-texts', async (req, res) => {
    res.json({
      message: 'e-mail texts saved',
      ...presentEmailTexts(await saveEmailTexts(deps, companyIdOf(req), parseInput(EmailTextsUpdate, req.body))),
    });
  });
  r.delete('/invoice/email-texts', async (req, res) => {
    res.json({ message: 'e-mail texts reset to the defaults', ...presentEmailTexts(await resetEmailTexts(deps, companyIdOf(req))) });
  });
  r.post('/invoice/:id/send_email', async (req, res) => {
    const id = parsePath(IntId, req.params, 'id');
    const emailId = await sendInvoiceEmail(deps, companyIdOf(req), id, parseInput(SendEmailRequest, req.body)).catch((err: unknown) => {
      // 429 EMAIL_LIMIT_EXCEEDED: when the day's count resets
      const retryAfter = err instanceof AppError ? err.options.extra?.retry_after : undefined;
      if (typeof retryAfter === 'number') res.set('Retry-After', String(retryAfter));
      throw err;
    });
    res.status(202).location(`${req.baseUrl}/invoice/${id}/emails`).json({ message: 'e-mail queued', email_id: emailId });
  });
  r.get('/invoice/:id/emails', async (req, res) => {
    const companyId = companyIdOf(req);
    const id = parsePath(IntId, req.params, 'id');
    await loadInvoice(deps, companyId, id);
    res.json({ emails: (await deps.emails.ofInvoice(companyId, id)).map(presentEmail) });
  });
  return r;
}
