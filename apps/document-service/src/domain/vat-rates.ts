// from the plain tables, not the barrel: the render workers load this and stay without zod (tables.ts)
import { vatRatesInForce } from '@inv/contracts/tables';

/**
 * What a standard-category (S) VAT rate is where and when it was charged (pure, no I/O): what tells a VAT breakdown
 * row at the standard rate from one at a reduced rate, whatever the position's tax treatment says. The EU member
 * states' rates are the contracts' table (`vatRatesInForce`, libs/contracts/src/vat-rates.ts: the one table the
 * rate plausibility checks use too); for sellers outside the EU our customers buy from, the standard rates below
 * (any rate above zero and below it counts as reduced there).
 */
export interface RatesInForce {
  /** Percent, as printed ("19", "25.5"). */
  standard: string;
  /** The reduced rates in force (super-reduced and parking rates included); absent where the table knows none. */
  reduced?: readonly string[];
  /** Standard rates of a region (Austria's 19 % in Jungholz and Mittelberg, Portugal's islands). */
  regional?: readonly string[];
}

/** Standard rates outside the EU, [from, to] inclusive (YYYY-MM-DD, `to` absent: in force today). */
const OUTSIDE_EU: Readonly<Record<string, ReadonlyArray<{ from: string; to?: string; standard: string }>>> = {
  GB: [{ from: '2011-01-04', standard: '20' }],
  NO: [{ from: '2005-01-01', standard: '25' }],
  // Swiss federal VAT (MWSTG Art. 25)
  CH: [
    { from: '2018-01-01', to: '2023-12-31', standard: '7.7' },
    { from: '2024-01-01', standard: '8.1' },
  ],
};

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The rates in force in `country` (ISO 3166-1 alpha-2; Greece also as EL) on `date`, or undefined when unknown. */
export function ratesInForce(country: string | undefined, date: string | undefined): RatesInForce | undefined {
  if (!country || !date || !ISO_DATE.test(date)) return undefined;
  const code = country.trim().toUpperCase();
  const eu = vatRatesInForce(code, date);
  if (eu) {
    const standard = eu.find((v) => v.kind === 'standard');
    if (!standard) return undefined;
    const reduced = eu.filter((v) => v.kind === 'reduced' || v.kind === 'super-reduced' || v.kind === 'parking').map((v) => v.rate);
    const regional = eu.filter((v) => v.kind === 'regional').map((v) => v.rate);
    return { standard: standard.rate, reduced, regional };
  }
  const period = OUTSIDE_EU[code]?.find((p) => p.from <= date && (p.to === undefined || date <= p.to));
  return period && { standard: period.standard };
}

/** "7", "7.0" and "07.00" are one rate; compared as numbers in hundredths (rates have at most 2 decimals in use). */
export const rateKey = (rate: string): number => Math.round(Number(rate.trim()) * 100);

/**
 * What an S (standard-category) rate is in `country` on `date`: the standard rate, a reduced rate, a rate not in
 * force there (Germany: 16 % in 2026), or unknown (no table for that country or date).
 */
export function rateKind(
  rate: string,
  country: string | undefined,
  date: string | undefined,
): 'standard' | 'reduced' | 'notInForce' | 'unknown' {
  const inForce = ratesInForce(country, date);
  const r = rateKey(rate);
  if (!inForce || !Number.isFinite(r)) return 'unknown';
  if (r === rateKey(inForce.standard) || inForce.regional?.some((x) => rateKey(x) === r)) return 'standard';
  if (inForce.reduced) return inForce.reduced.some((x) => rateKey(x) === r) ? 'reduced' : 'notInForce';
  return r > 0 && r < rateKey(inForce.standard) ? 'reduced' : 'notInForce';
}
