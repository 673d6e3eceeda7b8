import type { Envelope } from '@inv/bus';
import type { messages } from '@inv/contracts';
import type { z } from 'zod';
import type { InvoiceDeps } from '../usecases/deps';
import { markJobStarted } from '../usecases/mark-job-started';

/** document-service began rendering a finalize job. */
export const onRenderStarted = (deps: InvoiceDeps, msg: Envelope<z.output<(typeof messages.events)['document.render-started.v1']>>) =>
  markJobStarted(deps, msg.companyId, msg.data.jobId);
