import type { Envelope } from '@inv/bus';
import type { messages } from '@inv/contracts';
import type { Logger } from '@inv/service-kit';
import type { z } from 'zod';
import { recordFinalizeEnded } from './finalize-timing';
import type { InvoiceDeps } from '../usecases/deps';
import { failFinalization } from '../usecases/fail-finalization';

/** Rendering failed for good: the job fails, the draft is editable again. */
export async function onRenderFailed(
  deps: InvoiceDeps,
  msg: Envelope<z.output<(typeof messages.events)['document.render-failed.v1']>>,
  logger: Logger,
) {
  const job = await failFinalization(deps, msg.companyId, msg.data);
  recordFinalizeEnded(logger, { jobId: msg.data.jobId, invoiceId: msg.data.invoiceId }, job, msg.occurredAt);
  return job;
}
