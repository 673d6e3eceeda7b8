import { implausibleVatRate, type InvoiceSnapshot } from '@inv/contracts';

/** Rule id of the warning about a standard-rated position whose rate the country does not have on the date of supply. */
export const VAT_RATE_RULE = 'VAT_RATE_NOT_IN_FORCE';

/**
 * Standard-rated lines (category S) at a rate the seller's country (or, for a distance sale, the buyer's EU country)
 * does not have on the date of supply: the service period's end, else the delivery date, else the issue date. One
 * warning per rate, naming the positions and the rates in force (libs/contracts vat-rates.ts). Pure.
 */
export function vatRateWarnings(snapshot: InvoiceSnapshot): { field: string; rule: string; message: string }[] {
  const date = snapshot.period?.end ?? snapshot.deliveryDate ?? snapshot.issueDate;
  const byRate = new Map<string, string[]>();
  for (const line of snapshot.lines) {
    if (line.vat.category !== 'S') continue;
    const key = String(Number(line.vat.rate));
    byRate.set(key, [...(byRate.get(key) ?? []), line.id]);
  }
  const out: { field: string; rule: string; message: string }[] = [];
  for (const [rate, ids] of byRate) {
    const finding = implausibleVatRate({
      sellerCountry: snapshot.seller.address.countryCode,
      buyerCountry: snapshot.buyer.address.countryCode,
      date,
      ratePercent: rate,
    });
    if (finding)
      out.push({
        field: ids.length === 1 ? `positions[${ids[0]}].tax_rate` : 'positions',
        rule: VAT_RATE_RULE,
        message: `position${ids.length === 1 ? '' : 's'} ${ids.join(', ')}: ${finding} (date of supply: the service period's end, else the invoice date); check tax_rate (a fraction, e.g. 0.19)`,
      });
  }
  return out;
}
