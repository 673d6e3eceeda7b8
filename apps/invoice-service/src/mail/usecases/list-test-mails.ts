import { isTestCompany, type CompanyId, type TestMailListQuery } from '@inv/contracts';
import { AppError } from '@inv/service-kit';
import type { MailDeps } from '../deps';

/** Only a test key's company (a test twin) has recorded e-mails; a live key is told where they are. */
export function requireTestMode(companyId: CompanyId) {
  if (!isTestCompany(companyId))
    throw new AppError(
      'forbidden',
      'recorded e-mails exist only in test mode: use a test key (ak_test_…); live e-mails go to the mail server',
      {
        code: 'FORBIDDEN',
      },
    );
}

/** GET /test-mails: the e-mails test mode recorded instead of sending, newest first. */
export async function listTestMails(deps: MailDeps, companyId: CompanyId, q: TestMailListQuery) {
  requireTestMode(companyId);
  const [items, total] = await Promise.all([
    deps.testMails.list(companyId, (q.page - 1) * q.limit, q.limit),
    deps.testMails.count(companyId),
  ]);
  return { items, total };
}
