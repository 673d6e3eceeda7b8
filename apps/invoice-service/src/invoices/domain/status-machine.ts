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

/**
 * Moves caused by payments (not requested directly): the open amount reaching zero makes an OPEN or SENT document
 * PAID; reversing a payment of a PAID document makes it owed again, back in the status it was paid in (SENT if it
 * had been sent, else OPEN). PAID -> SENT / PAID -> OPEN exist only this way.
 */
const byPayment: Record<InvoiceStatus, InvoiceStatus[]> = {
  DRAFT: [],
  OPEN: ['PAID'],
  SENT: ['PAID'],
  PAID: ['OPEN', 'SENT'],
  CANCELLED: [],
};

export function canMoveByPayment(from: InvoiceStatus, to: InvoiceStatus): boolean {
  return byPayment[from].includes(to);
}

/** The status a PAID document returns to when a payment is reversed: the one it was paid in (SENT when unknown). */
export function statusAfterReversal(paidFrom: InvoiceStatus | undefined): 'OPEN' | 'SENT' {
  return paidFrom === 'OPEN' ? 'OPEN' : 'SENT';
}

export function isEditable(status: InvoiceStatus): boolean {
  return status === 'DRAFT';
}
