import type { Envelope } from '@inv/bus';
import type { messages } from '@inv/contracts';
import type { z } from 'zod';
import type { InvoiceDeps } from '../usecases/deps';
import { failFinalization } from '../usecases/fail-finalization';

/** Rendering failed for good: the job fails, the draft is editable again. */
export const onRenderFailed = (deps: InvoiceDeps, msg: Envelope<z.output<(typeof messages.events)['document.render-failed.v1']>>) => failFinalization(deps, msg.companyId, msg.data);
