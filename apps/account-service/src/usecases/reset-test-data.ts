import { isTestCompany, type CompanyId } from '@inv/contracts';
import type { Changes } from '@inv/outbox';
import { deleteTestCompanyData, eventMessage } from '@inv/runtime';
import { AppError } from '@inv/service-kit';
import type { Connection } from 'mongoose';

/**
 * DELETE /test-data (docs/test-mode.md): removes the test twin's documents of this service (its audit log and chain
 * head; the twin has no company, members or keys of its own) and, in the same commit, announces
 * `test-data.reset-requested.v1`, on which every other service that keeps data removes the twin's documents (and the
 * audit log starts the twin's fresh chain with `test_data.reset`). Only a test key's request reaches a twin's id; a
 * live key's is refused, so live data is never a target. Idempotent: a repeat deletes nothing here, and the services
 * find nothing left to delete.
 */
export async function resetTestData(deps: { conn: Connection; commit: Changes['commit']; now: () => Date }, companyId: CompanyId) {
  if (!isTestCompany(companyId))
    throw new AppError('forbidden', 'DELETE /test-data needs a test key (ak_test_…); live data is never reset', { code: 'FORBIDDEN' });
  const deleted = await deps.commit(async (session, emit) => {
    const gone = await deleteTestCompanyData(deps.conn, companyId, session);
    emit(eventMessage('test-data.reset-requested.v1', companyId, { requestedAt: deps.now().toISOString() }));
    return gone;
  });
  return { message: 'test data deleted; live data is untouched', deleted };
}
