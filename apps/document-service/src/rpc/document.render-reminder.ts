import type { RpcRequestOf } from '@inv/runtime';
import type { DocumentDeps } from '../support/deps';
import { mayUseLogo, rendersInTestMode } from '../domain/test-mode';

/**
 * Renders a reminder of an invoice (with the company's logo when it can be read) and stores it under the invoice's
 * prefix, one object per reminder (a repeated request renders and overwrites the same object).
 */
export async function onRenderReminder(deps: DocumentDeps, msg: RpcRequestOf<'document.render-reminder.v1'>) {
  const { template, logo: logoRef, invoiceId, reminderId, ...reminder } = msg.data;
  let logo: Buffer | undefined;
  if (logoRef && mayUseLogo(msg.companyId, logoRef.key)) {
    logo = await deps.objects.get(logoRef.key).catch((err: unknown) => {
      deps.logger.warn({ err }, 'the logo could not be read; rendering the reminder without it');
      return undefined;
    });
  }
  const pdf = await deps.renderer.reminder(reminder, { template, logo, testMode: rendersInTestMode(msg.companyId) });
  const safeNumber = reminder.invoiceNumber.replace(/[^\w.-]+/g, '_');
  const filename = `${reminder.language === 'de' ? 'Mahnung' : 'reminder'}-${safeNumber}-${reminder.level}.pdf`;
  const key = `${msg.companyId}/invoices/${invoiceId}/reminders/${reminderId}-${reminder.level}.pdf`;
  await deps.objects.put(key, pdf, 'application/pdf');
  return { key, filename, size: pdf.length };
}
