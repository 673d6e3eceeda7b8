import type { CompanyId } from '@inv/contracts';
import type { ObjectStore } from '@inv/objects';
import { eventMessage } from '@inv/runtime';
import { notFound } from '@inv/service-kit';
import type { CompanyDoc } from '../domain/company-doc';
import type { BoundedQueue } from './bounded-queue';
import type { CompanyDeps } from './deps';

export type LogoDeps = CompanyDeps & {
  objects: ObjectStore;
  presignTtlSeconds: number;
  /** Where logos wait to be processed (LOGO_CONCURRENCY at once, LOGO_QUEUE_MAX waiting, 503 beyond). */
  logoQueue: BoundedQueue;
};

/** Sets or removes the logo record and announces it; answers the company as it was before. */
export function swapLogo(deps: LogoDeps, companyId: CompanyId, logo: CompanyDoc['logo'], mustExist = false): Promise<CompanyDoc> {
  return deps.commit(async (session, emit) => {
    const before = await deps.companies.swapLogo(companyId, logo, deps.now(), session);
    if (!before) throw notFound('company');
    if (mustExist && !before.logo) throw notFound('logo');
    emit(eventMessage('company.profile-changed.v1', companyId, { fields: ['logo'] }));
    return before;
  });
}
