import type { Envelope } from '@inv/bus';
import type { messages } from '@inv/contracts';
import type { z } from 'zod';
import type { InvoiceDeps } from '../usecases/deps';
import { recordMailFailed, recordMailSent } from '../usecases/record-mail-outcome';

type Events = typeof messages.events;
type MailOutcome =
  | (Envelope<z.output<Events['mail.sent.v1']>> & { type: 'mail.sent.v1' })
  | (Envelope<z.output<Events['mail.failed.v1']>> & { type: 'mail.failed.v1' });

/** mail.sent.v1 / mail.failed.v1 for invoice e-mails: the record settles, an OPEN invoice becomes SENT. */
export const onMailOutcome = (deps: InvoiceDeps, msg: MailOutcome) => (msg.type === 'mail.sent.v1' ? recordMailSent(deps, msg) : recordMailFailed(deps, msg));
