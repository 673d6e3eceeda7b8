import type { EventOf } from '@inv/runtime';
import type { InvoiceDeps } from '../deps';
import { markJobStarted } from '../invoices';

/** document-service began rendering a finalize job. */
export const onRenderStarted = (deps: InvoiceDeps, msg: EventOf<'document.render-started.v1'>) =>
  markJobStarted(deps, msg.companyId, msg.data.jobId);
