import type { EventOf } from '@inv/runtime';
import type { InvoiceDeps } from '../platform/deps';
import { markJobStarted } from '../invoices/usecases/mark-job-started';

/** document-service began rendering a finalize job. */
export const onRenderStarted = (deps: InvoiceDeps, msg: EventOf<'document.render-started.v1'>) =>
  markJobStarted(deps, msg.companyId, msg.data.jobId);
