import { computeTotals, type InvoiceTotals } from '@inv/money';
import type { EInvoice } from './model';

/** The totals every writer prints: derived from the lines by @inv/money, never taken from the caller. */
export function invoiceTotals(invoice: Pick<EInvoice, 'lines'>): InvoiceTotals {
  return computeTotals({
    lines: invoice.lines.map((l) => ({
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      vat: { category: l.vat.category, rate: l.vat.rate },
      ...(l.discount ? { discount: { type: l.discount.type, value: l.discount.value } } : {}),
    })),
  });
}
