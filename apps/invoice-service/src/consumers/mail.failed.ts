import type { EventOf } from '@inv/runtime';
import type { InvoiceDeps } from '../deps';
import { recordMailFailed } from '../mail';

/** An invoice e-mail failed for good: its record keeps the server's answer. */
export const onMailFailed = (deps: InvoiceDeps, msg: EventOf<'mail.failed.v1'>) => recordMailFailed(deps, msg);
