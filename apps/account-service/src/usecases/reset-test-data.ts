import { isTestCompany, type CompanyId } from '@inv/contracts';
import { deleteTestCompanyData } from '@inv/runtime';
import { AppError } from '@inv/service-kit';
import type { Connection } from 'mongoose';

/**
 * DELETE /test-data (docs/test-mode.md): removes the test twin's documents of this service (its audit log and
 * chain head; the twin has no company, members or keys of its own). Only a test key's request reaches a twin's
 * id; a live key's is refused, so live data is never a target. Idempotent.
 */
export async function resetTestData(deps: { conn: Connection }, companyId: CompanyId) {
  if (!isTestCompany(companyId))
    throw new AppError('forbidden', 'DELETE /test-data needs a test key (ak_test_…); live data is never reset', { code: 'FORBIDDEN' });
  const deleted = await deleteTestCompanyData(deps.conn, companyId);
  return { message: 'test data deleted; live data is untouched', deleted };
}
