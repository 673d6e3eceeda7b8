import type { Envelope } from '@inv/bus';
import type { messages } from '@inv/contracts';
import type { z } from 'zod';
import type { InvoiceDeps } from '../usecases/deps';
import { recordMailFailed } from '../usecases/record-mail-outcome';

/** An invoice e-mail failed for good: its record keeps the server's answer. */
export const onMailFailed = (deps: InvoiceDeps, msg: Envelope<z.output<(typeof messages.events)['mail.failed.v1']>>) =>
  recordMailFailed(deps, msg);
