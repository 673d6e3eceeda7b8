import type { InvoiceSnapshot } from '@inv/contracts';
import { dropNulls } from '@inv/service-kit';
import type { InvoiceTotals } from '@inv/money';
import type { PositionDoc, StoredFile } from './invoice';
import { vatOf } from './totals';

/**
 * What the accounting export's read model needs beyond the totals, taken from the frozen snapshot:
 * the buyer and customer number, net and VAT per VAT category and rate with the tax treatment of its
 * positions (a DATEV row per rate, the revenue account per treatment), the date of supply and the PDF.
 */
export function exportFacts(stored: InvoiceSnapshot, positions: PositionDoc[], breakdown: InvoiceTotals['vatBreakdown'], pdf: StoredFile) {
  // The snapshot comes back from MongoDB, where an absent optional field may be stored as null.
  const snapshot = dropNulls(stored) as InvoiceSnapshot;
  const treatmentOf = new Map<string, string>();
  for (const p of positions) {
    const v = vatOf(p);
    const key = `${v.category}|${v.rate}`;
    if (!treatmentOf.has(key)) treatmentOf.set(key, v.treatment);
    if (!treatmentOf.has(v.category)) treatmentOf.set(v.category, v.treatment);
  }
  return {
    customerNumber: snapshot.customerNumber,
    buyer: snapshot.buyer,
    vatBreakdown: breakdown.map((b) => ({
      category: b.category,
      rate: b.rate,
      treatment: treatmentOf.get(`${b.category}|${b.rate}`) ?? treatmentOf.get(b.category) ?? 'standard',
      net: b.taxableAmount,
      vat: b.taxAmount,
    })),
    serviceDate: snapshot.period?.end ?? snapshot.deliveryDate,
    precedingInvoiceNumber: snapshot.precedingInvoice?.number,
    pdf: { key: pdf.key, filename: pdf.filename, contentType: pdf.contentType, size: pdf.size },
  };
}
