import type { CompanyId } from '@inv/contracts';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { notFound } from '@inv/service-kit';
import type { JobDoc } from '../db/jobs';
import type { InvoicesDeps } from '../deps';

/** Other replicas change jobs too: without a signal from this process, look again at this interval. */
const RECHECK_MS = 500;

const settled = (job: JobDoc) => job.status === 'finished' || job.status === 'failed';

/**
 * A job, held up to `waitSeconds` until its status differs from the one it had when asked (long polling):
 * woken at once by this process's own status changes (which carry the job as written, so it is not read
 * again), otherwise re-read every 500 ms. Answers at once for wait 0, a finished or failed job, or when
 * `abort` fires (the client went away).
 */
export async function waitForJob(
  deps: InvoicesDeps,
  companyId: CompanyId,
  invoiceId: number,
  jobId: string,
  waitSeconds: number,
  abort: AbortSignal,
): Promise<JobDoc> {
  let job = await deps.jobs.get(companyId, invoiceId, jobId);
  if (!job) throw notFound(`job ${jobId}`);
  const initial = job.status;
  const deadline = Date.now() + waitSeconds * 1000;
  while (!settled(job) && job.status === initial && Date.now() < deadline && !abort.aborted) {
    const wake = new AbortController();
    const onAbort = () => wake.abort();
    abort.addEventListener('abort', onAbort, { once: true });
    let signalled: JobDoc | undefined;
    try {
      const woken = await Promise.race([
        once(deps.jobSignals, jobId, { signal: wake.signal }) as Promise<[JobDoc | undefined]>,
        sleep(Math.min(RECHECK_MS, Math.max(0, deadline - Date.now())), undefined, { signal: wake.signal }),
      ]).catch(() => undefined);
      signalled = woken?.[0];
    } finally {
      wake.abort(); // drop the listener and the timer of the race's loser
      abort.removeEventListener('abort', onAbort);
    }
    job =
      signalled && signalled.companyId === companyId && signalled.invoiceId === invoiceId
        ? signalled
        : ((await deps.jobs.get(companyId, invoiceId, jobId)) ?? job);
  }
  return job;
}
