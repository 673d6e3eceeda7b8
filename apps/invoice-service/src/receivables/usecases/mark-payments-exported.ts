import type { CompanyId } from '@inv/contracts';
import type { ReceivablesDeps } from '../deps';

/**
 * export-service put these payments into a DATEV export: they can no longer be reversed. Idempotent by itself (a payment
 * keeps its first export; a redelivery changes nothing); ids the company does not have are ignored.
 */
export async function markPaymentsExported(
  deps: ReceivablesDeps,
  companyId: CompanyId,
  paymentIds: number[],
  jobId: string,
): Promise<number> {
  if (paymentIds.length === 0) return 0;
  return deps.payments.markExported(companyId, paymentIds, jobId, deps.now());
}
