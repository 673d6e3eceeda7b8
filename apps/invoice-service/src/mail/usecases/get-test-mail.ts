import type { CompanyId } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import type { MailDeps } from '../deps';
import { requireTestMode } from './list-test-mails';

/** GET /test-mails/{id}: one recorded e-mail with its content. */
export async function getTestMail(deps: MailDeps, companyId: CompanyId, id: string) {
  requireTestMode(companyId);
  const mail = await deps.testMails.get(companyId, id);
  if (!mail) throw notFound(`test mail ${id}`);
  return mail;
}
