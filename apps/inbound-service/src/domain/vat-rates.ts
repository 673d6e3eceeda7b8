import { implausibleVatRate, type InboundContent, type InboundFinding } from '@inv/contracts';

/**
 * A received invoice's standard-rated VAT (category S, breakdown BG-23) at a rate the seller's country (or, for a
 * distance sale, the buyer's EU country) does not have on the date of supply (BT-72 delivery date, else BT-2 issue
 * date): one warning per rate naming the rates in force (libs/contracts vat-rates.ts). A warning, not an error: the
 * official rules accept any rate, and the supplier may have a reason (a supply in another period). Pure.
 */
export function checkVatRates(c: InboundContent): InboundFinding[] {
  const date = c.delivery_date ?? c.issue_date;
  if (!date) return [];
  const out: InboundFinding[] = [];
  const seen = new Set<string>();
  c.vat_breakdown.forEach((v, i) => {
    if (v.category !== 'S' || v.rate === undefined) return;
    const rate = v.rate.trim();
    if (seen.has(rate)) return;
    seen.add(rate);
    const finding = implausibleVatRate({
      sellerCountry: c.seller.address?.country,
      buyerCountry: c.buyer.address?.country,
      date,
      ratePercent: rate,
    });
    if (finding)
      out.push({
        rule: 'INB-VAT-RATE',
        severity: 'warning',
        location: `vat_breakdown[${i}].rate`,
        message: `${finding} (date of supply: ${c.delivery_date ? 'the delivery date BT-72' : 'the issue date BT-2'})`,
        source: 'vat-rates',
      });
  });
  return out;
}
