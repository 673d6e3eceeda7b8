import type { Envelope } from '@inv/bus';
import type { messages } from '@inv/contracts';
import type { z } from 'zod';
import type { InvoiceDeps } from '../usecases/deps';
import { recordMailSent } from '../usecases/record-mail-outcome';

/** An invoice e-mail was accepted: its record settles, an OPEN invoice becomes SENT. */
export const onMailSent = (deps: InvoiceDeps, msg: Envelope<z.output<(typeof messages.events)['mail.sent.v1']>>) =>
  recordMailSent(deps, msg);
