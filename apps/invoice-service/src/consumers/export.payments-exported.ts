import type { EventOf } from '@inv/runtime';
import type { InvoiceDeps } from '../deps';
import { markPaymentsExported } from '../receivables';

/** Payments went into a DATEV export: they are marked exported and can no longer be reversed (a redelivery changes nothing). */
export const onPaymentsExported = async (deps: InvoiceDeps, msg: EventOf<'export.payments-exported.v1'>) =>
  void (await markPaymentsExported(deps, msg.companyId, msg.data.paymentIds, msg.data.jobId));
