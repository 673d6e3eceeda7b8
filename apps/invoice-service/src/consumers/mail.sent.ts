import type { EventOf } from '@inv/runtime';
import type { InvoiceDeps } from '../deps';
import { recordMailSent } from '../mail';

/** An invoice e-mail was accepted: its record settles, an OPEN invoice becomes SENT. */
export const onMailSent = (deps: InvoiceDeps, msg: EventOf<'mail.sent.v1'>) => recordMailSent(deps, msg);
