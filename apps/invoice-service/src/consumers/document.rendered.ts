import type { EventOf } from '@inv/runtime';
import type { Logger } from '@inv/service-kit';
import { completeFinalization, recordFinalizeEnded } from '../invoices';
import type { InvoiceDeps } from '../deps';

/** The documents of a finalize job exist: the invoice becomes OPEN. */
export async function onRendered(deps: InvoiceDeps, msg: EventOf<'document.rendered.v1'>, logger: Logger) {
  const job = await completeFinalization(deps, msg.companyId, msg.data);
  recordFinalizeEnded(logger, { jobId: msg.data.jobId, invoiceId: msg.data.invoiceId }, job, msg.occurredAt);
  return job;
}
