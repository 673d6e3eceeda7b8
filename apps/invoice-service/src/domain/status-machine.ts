import type { InvoiceStatus } from '@inv/contracts';

/**
 * Invoice lifecycle. The documented flow is DRAFT -> OPEN (finalize job) -> SENT -> PAID; an OPEN invoice
 * may also be marked PAID directly (paid before it was sent). Only a draft can be cancelled; a finalized
 * invoice is corrected with a credit note, never cancelled, because its number has been issued.
 */
const manual: Record<InvoiceStatus, InvoiceStatus[]> = {
  DRAFT: ['CANCELLED'],
  OPEN: ['SENT', 'PAID'],
  SENT: ['PAID'],
  PAID: [],
  CANCELLED: [],
};

export function canMove(from: InvoiceStatus, to: InvoiceStatus): boolean {
  return manual[from].includes(to);
}

export function isEditable(status: InvoiceStatus): boolean {
  return status === 'DRAFT';
}
