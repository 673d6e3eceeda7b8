import type { Envelope } from '@inv/bus';
import type { messages } from '@inv/contracts';
import type { z } from 'zod';
import type { InvoiceDeps } from '../usecases/deps';
import { completeFinalization } from '../usecases/complete-finalization';

/** The documents of a finalize job exist: the invoice becomes OPEN. */
export const onRendered = (deps: InvoiceDeps, msg: Envelope<z.output<(typeof messages.events)['document.rendered.v1']>>) => completeFinalization(deps, msg.companyId, msg.data);
