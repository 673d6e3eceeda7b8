import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CompanyId } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import type { InboundDoc } from '../db/inbound-documents';
import type { InboundDeps } from '../support/deps';

/** Other replicas process documents too: without a signal from this process, look again at this interval. */
const RECHECK_MS = 500;

/**
 * A received document, held up to `waitSeconds` while its job has not ended (long polling, as a finalization job):
 * woken at once when this process ends the job, otherwise re-read every 500 ms. Answers at once for wait 0, an ended
 * job, or when `abort` fires (the client went away).
 */
export async function waitForJob(
  deps: InboundDeps,
  companyId: CompanyId,
  id: number,
  waitSeconds: number,
  abort: AbortSignal,
): Promise<InboundDoc> {
  let doc = await deps.documents.get(companyId, id);
  if (!doc) throw notFound('inbound document');
  const deadline = Date.now() + waitSeconds * 1000;
  while (doc.status === 'PROCESSING' && Date.now() < deadline && !abort.aborted) {
    const wake = new AbortController();
    const onAbort = () => wake.abort();
    abort.addEventListener('abort', onAbort, { once: true });
    try {
      await Promise.race([
        once(deps.jobSignals, `${companyId}:${id}`, { signal: wake.signal }),
        sleep(Math.min(RECHECK_MS, Math.max(0, deadline - Date.now())), undefined, { signal: wake.signal }),
      ]).catch(() => undefined);
    } finally {
      wake.abort(); // drop the listener and the timer of the race's loser
      abort.removeEventListener('abort', onAbort);
    }
    doc = (await deps.documents.get(companyId, id)) ?? doc;
  }
  return doc;
}
