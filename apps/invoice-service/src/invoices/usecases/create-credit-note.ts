import type { CompanyId, CreditNoteCreate } from '@inv/contracts';
import { AppError, conflict } from '@inv/service-kit';
import type { InvoiceDoc, PositionDoc } from '../db/invoices';
import { centsToAmount, creditLimitCents, creditLines, remainingCreditCents } from '../domain/credit-note';
import { grossCentsOf } from '../domain/totals';
import { copyInvoice } from './copy-invoice';
import type { InvoicesDeps } from '../deps';
import { loadInvoice } from './load-invoice';

/** 409 CREDIT_EXCEEDS_INVOICE: the credit note would take more than the invoice has left; the body says how much is left. */
export function creditExceeds(
  invoice: Pick<InvoiceDoc, 'id' | 'number' | 'grossCents' | 'creditedCents' | 'positions'>,
  requestedCents: number,
) {
  const remaining = remainingCreditCents(invoice);
  const amount = (cents: number) => centsToAmount(cents).toFixed(2);
  return new AppError(
    'conflict',
    `invoice ${invoice.number} can be credited by ${amount(remaining)} more; this credit note is ${amount(requestedCents)}`,
    {
      code: 'CREDIT_EXCEEDS_INVOICE',
      extra: {
        invoice_id: invoice.id,
        remaining_gross: centsToAmount(remaining),
        invoice_gross: centsToAmount(creditLimitCents(invoice)),
        credited_gross: centsToAmount(invoice.creditedCents ?? 0),
        requested_gross: centsToAmount(requestedCents),
      },
    },
  );
}

/**
 * A credit note (type 381) for a finalized invoice: a new draft referencing it, with all of its positions
 * (no body), the positions and quantities named, or one position of a gross amount. The invoice's remaining
 * creditable gross is checked here for an early answer and taken for good when the credit note is
 * finalized (startFinalizeJob), where concurrent credit notes cannot both pass.
 */
export async function createCreditNote(
  deps: InvoicesDeps,
  companyId: CompanyId,
  id: number,
  request: CreditNoteCreate = {},
): Promise<number> {
  const inv = await loadInvoice(deps, companyId, id);
  if (inv.typeCode === '381') throw conflict('a credit note cannot be credited again', 'INVALID_CREDIT_NOTE');
  if (!['OPEN', 'SENT', 'PAID'].includes(inv.status))
    throw conflict(`invoice ${id} is ${inv.status}; only finalized invoices can be credited`, 'INVOICE_NOT_FINALIZED');
  const { lines, errors } = creditLines(inv, request);
  if (errors.length)
    throw new AppError('invalid_data', errors.map((e) => `${e.path}: ${e.message}`).join('; '), { code: 'VALIDATION_ERROR', errors });
  const positions = lines.map((line, i) => ({ ...line, id: i + 1 }) as PositionDoc);
  const cents = grossCentsOf(positions);
  const remaining = remainingCreditCents(inv);
  // a full copy stays possible while something is left (it can be edited down before finalizing)
  const partial = request.positions !== undefined || request.amount !== undefined;
  if (remaining === 0 || (partial && cents > remaining)) throw creditExceeds(inv, cents);
  return copyInvoice(deps, { ...inv, positions: lines as PositionDoc[] }, 'credit_note', {
    typeCode: '381',
    grossCents: cents,
    benefitPeriodStart: inv.benefitPeriodStart,
    benefitPeriodEnd: inv.benefitPeriodEnd,
    precedingInvoiceId: inv.id,
  });
}
