import type { EventOf } from '@inv/runtime';
import type { Logger } from '@inv/service-kit';
import { failFinalization, recordFinalizeEnded } from '../invoices';
import type { InvoiceDeps } from '../deps';

/** Rendering failed for good: the job fails, the draft is editable again. */
export async function onRenderFailed(deps: InvoiceDeps, msg: EventOf<'document.render-failed.v1'>, logger: Logger) {
  const job = await failFinalization(deps, msg.companyId, msg.data);
  recordFinalizeEnded(logger, { jobId: msg.data.jobId, invoiceId: msg.data.invoiceId }, job, msg.occurredAt);
  return job;
}
