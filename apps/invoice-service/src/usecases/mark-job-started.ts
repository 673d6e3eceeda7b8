import type { InvoiceDeps } from './deps';

/** queued -> started; a late or repeated "started" never moves a finished or failed job back. */
export async function markJobStarted(deps: InvoiceDeps, companyId: string, jobId: string) {
  await deps.jobs.markStarted(companyId, jobId, deps.now());
}
