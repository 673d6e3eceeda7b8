import type { Envelope } from '@inv/bus';
import type { messages } from '@inv/contracts';
import type { z } from 'zod';
import { deliverMail } from '../usecases/deliver-mail';
import type { InvoiceDeps } from '../usecases/deps';

/** mail.send.v1: the mail module sends one e-mail (idempotent by email id). */
export const handleSendMail = (deps: InvoiceDeps, msg: Envelope<z.output<(typeof messages.commands)['mail.send.v1']>>, attempt: number) =>
  deliverMail(deps, msg, attempt);
