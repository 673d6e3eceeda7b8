import { computeTotals, type InvoiceTotals } from '@inv/money';
import type { EInvoice, PostalAddress } from './model';

/** The totals every writer prints: derived from the lines by @inv/money, never taken from the caller. */
export function invoiceTotals(invoice: Pick<EInvoice, 'lines' | 'prepaidAmount'>): InvoiceTotals {
  return computeTotals({
    lines: invoice.lines.map((l) => ({
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      vat: { category: l.vat.category, rate: l.vat.rate },
      ...(l.discount ? { discount: { type: l.discount.type, value: l.discount.value } } : {}),
    })),
    ...(invoice.prepaidAmount !== undefined ? { prepaidAmount: invoice.prepaidAmount } : {}),
  });
}

/**
 * Deliver-to data (BG-13/BG-15). An intra-community supply (K) must state the deliver-to country
 * (BR-IC-12); without an explicit `deliverTo` the goods are taken to go to the buyer's address.
 */
export function effectiveDeliverTo(
  invoice: Pick<EInvoice, 'deliverTo' | 'buyer' | 'lines'>,
): { name?: string; address: PostalAddress } | undefined {
  if (invoice.deliverTo) return invoice.deliverTo;
  if (invoice.lines.some((l) => l.vat.category === 'K')) return { address: invoice.buyer.address };
  return undefined;
}
