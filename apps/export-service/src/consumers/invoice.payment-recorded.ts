import type { EventOf } from '@inv/runtime';
import type { ExportDeps } from '../support/deps';
import { projectPayment } from '../usecases/project-payment';

/** invoice.payment-recorded.v1: the payment in the export's read model (see projectPayment). */
export const onPaymentRecorded = (deps: ExportDeps, msg: EventOf<'invoice.payment-recorded.v1'>) => projectPayment(deps, msg);
