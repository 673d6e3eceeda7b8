import type { CompanyId } from '@inv/contracts';
import type { JobDoc } from '../db/jobs';
import type { InvoicesDeps } from '../deps';

/** queued -> started; a late or repeated "started" never moves a finished or failed job back. Answers the job if it moved. */
export async function markJobStarted(deps: InvoicesDeps, companyId: CompanyId, jobId: string): Promise<JobDoc | undefined> {
  return (await deps.jobs.markStarted(companyId, jobId, deps.now())) ?? undefined;
}
