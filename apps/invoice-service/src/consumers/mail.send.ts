import type { CommandOf } from '@inv/runtime';
import { deliverMail } from '../mail';
import type { InvoiceDeps } from '../deps';

/** mail.send.v1: the mail module sends one e-mail (idempotent by email id). */
export const handleSendMail = (deps: InvoiceDeps, msg: CommandOf<'mail.send.v1'>, attempt: number) => deliverMail(deps, msg, attempt);
