import type { CompanyId } from '@inv/contracts';
import type { MailDeps } from '../deps';
import { getEmailTexts } from './get-email-texts';

/** DELETE /invoice/email-texts: back to the default texts in every language. */
export async function resetEmailTexts(deps: MailDeps, companyId: CompanyId) {
  await deps.emails.saveTexts(companyId, { updatedAt: deps.now() }, { de: 1, en: 1 });
  return getEmailTexts(deps, companyId);
}
